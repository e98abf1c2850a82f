import { oneTimeCodeMail, type CodePurpose } from '#server/mail/code-mail.ts';
import { codeSms } from '#server/sms/sms-sender.ts';
import { randomSixDigits, sha256Hex } from '#server/crypto/tokens.ts';
import { replaceCode, type NewCode } from '#server/store/one-time-codes.ts';
import { accountRules, type AccountDeps } from './account-deps.ts';

/** Where a code goes and why. */
export interface CodeDelivery {
  channel: 'Email' | 'Phone';
  to: string;
  code: string;
  purpose: CodePurpose;
}

/** A new six-digit code for an account, stored hashed for the codes' lifetime (superseding earlier ones, see
 * replaceCode); answers the code to send. */
export async function issueCode(
  deps: AccountDeps,
  code: Omit<NewCode, 'codeHash' | 'expiresAt'> & { userId: number; channel: 'Email' | 'Phone' },
  now: Date,
): Promise<string> {
  const digits = randomSixDigits();
  await replaceCode(
    deps.store.db,
    {
      ...code,
      codeHash: sha256Hex(digits),
      expiresAt: new Date(now.getTime() + accountRules.codeLifetimeMs).toISOString(),
    },
    now.toISOString(),
  );
  return digits;
}

/** Sends a code by mail or text message. */
export async function deliverCode(deps: AccountDeps, delivery: CodeDelivery): Promise<void> {
  const minutes = accountRules.codeLifetimeMinutes;
  if (delivery.channel === 'Email') {
    await deps.mailer.send(
      oneTimeCodeMail({
        to: delivery.to,
        code: delivery.code,
        purpose: delivery.purpose,
        expiresInMinutes: minutes,
        appUrl: deps.config.publicUrl,
        now: deps.now(),
      }),
    );
  } else {
    await deps.sms.send({ to: delivery.to, body: codeSms(delivery.code, minutes) });
  }
}

/**
 * Sends a code without failing the call: a delivery problem is logged (the person can ask again). With
 * `background`, the call does not wait, so its answer takes the same time whether or not a code was sent.
 */
export async function deliverQuietly(
  deps: AccountDeps,
  delivery: CodeDelivery,
  options: { background: boolean },
): Promise<void> {
  const sending = deliverCode(deps, delivery).catch((error: unknown) => {
    deps.log.error({ err: error, channel: delivery.channel }, 'a one-time code could not be delivered');
  });
  if (!options.background) return sending;
  deps.pending.add(sending);
  void sending.finally(() => deps.pending.delete(sending));
}
