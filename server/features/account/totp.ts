import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as 0005 sets it: SHA-1, 6 digits, 30-second steps, one step of drift either way. */
const PERIOD = 30;
const ISSUER = 'DBUI';

function totpFor(secret: string, label: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
    secret: Secret.fromBase32(secret),
  });
}

/** A new 160-bit secret in base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI and its QR code as a PNG data URL. */
export async function totpEnrolment(secret: string, username: string): Promise<{ uri: string; qr: string }> {
  const uri = totpFor(secret, username).toString();
  const { default: QRCode } = await import('qrcode');
  return { uri, qr: await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, width: 240 }) };
}

/**
 * The time step a code belongs to, or null when it is wrong, outside the drift window, or not newer than
 * `lastStep` (each step works once per account).
 */
export function matchTotp(secret: string, code: string, now: Date, lastStep: number | null): number | null {
  const delta = totpFor(secret, 'check').validate({ token: code, timestamp: now.getTime(), window: 1 });
  if (delta === null) return null;
  const step = Math.floor(now.getTime() / 1000 / PERIOD) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}
