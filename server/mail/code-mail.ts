import type { MailMessage } from './mailer.ts';

export type CodePurpose = 'sign-in' | 'confirm-email' | 'reset-password';

export interface OneTimeCodeMailInput {
  to: string;
  code: string;
  purpose: CodePurpose;
  expiresInMinutes: number;
  /** Where people reach DBUI (PUBLIC_URL), shown at the foot of the mail. */
  appUrl: string;
  /** When the code was made; now by default (tests pin it). */
  now?: Date;
}

// The code never goes into the subject: subjects show on lock screens and in notification previews.
const wording: Record<CodePurpose, { subject: string; lead: string }> = {
  'sign-in': {
    subject: 'Your DBUI sign-in code',
    lead: 'Use this code to finish signing in to DBUI:',
  },
  'confirm-email': {
    subject: 'Confirm your email address for DBUI',
    lead: 'Use this code to confirm your email address for DBUI:',
  },
  'reset-password': {
    subject: 'Your DBUI password reset code',
    lead: 'Use this code to reset your DBUI password:',
  },
};

const NOT_YOU = 'If you did not ask for this, ignore this mail; your password is still safe.';
const DO_NOT_SHARE = 'Do not share this code with anyone: DBUI will never ask you for it.';

/** The mail that carries a one-time code: what it is for, the code, when it expires; plain text and HTML. */
export function oneTimeCodeMail(input: OneTimeCodeMailInput): MailMessage {
  const { subject, lead } = wording[input.purpose];
  const minutes = input.expiresInMinutes;
  const expiresAt = new Date((input.now ?? new Date()).getTime() + minutes * 60_000);
  const expiry = `This code expires in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}, at ${expiresAt
    .toISOString()
    .slice(11, 16)} UTC.`;

  const text = [
    'Hello,',
    '',
    lead,
    '',
    `    ${input.code}`,
    '',
    expiry,
    DO_NOT_SHARE,
    '',
    NOT_YOU,
    '',
    '-- ',
    'DBUI',
    input.appUrl,
    '',
  ].join('\n');

  const link = /^https?:\/\//i.test(input.appUrl)
    ? `<a href="${escapeHtml(input.appUrl)}" style="color:#1c7ed6">${escapeHtml(input.appUrl)}</a>`
    : escapeHtml(input.appUrl);
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f1f3f5;font-family:Arial,Helvetica,sans-serif;color:#212529">
<div style="max-width:480px;margin:0 auto;padding:24px;background:#ffffff;border-radius:8px">
<p style="margin:0 0 16px;font-size:16px">Hello,</p>
<p style="margin:0 0 16px;font-size:16px">${escapeHtml(lead)}</p>
<p style="margin:0 0 16px;font-size:32px;font-weight:bold;letter-spacing:6px;font-family:'Courier New',Courier,monospace">${escapeHtml(input.code)}</p>
<p style="margin:0 0 8px;font-size:14px">${escapeHtml(expiry)}</p>
<p style="margin:0 0 16px;font-size:14px">${escapeHtml(DO_NOT_SHARE)}</p>
<p style="margin:0 0 16px;font-size:14px;color:#495057">${escapeHtml(NOT_YOU)}</p>
<p style="margin:0;font-size:12px;color:#868e96">DBUI &middot; ${link}</p>
</div>
</body>
</html>
`;
  return { to: input.to, subject, text, html };
}

/** Text made safe for HTML element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
