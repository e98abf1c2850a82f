import { createHmac } from 'node:crypto';
import { z } from 'zod';

/**
 * Remembers which solutions were used. `claim` answers true the first time an id is claimed and false after,
 * until `expiresAt` (after which the challenge itself is refused as expired, so the id may be forgotten).
 */
export interface ReplayGuard {
  claim(id: string, expiresAt: Date): Promise<boolean>;
}

/** A ReplayGuard in this process's memory (one instance, or tests); expired ids are swept as claims arrive. */
export function memoryReplayGuard(now: () => number = Date.now): ReplayGuard {
  const claimed = new Map<string, number>();
  let nextSweep = 0;
  return {
    async claim(id, expiresAt) {
      const time = now();
      if (time >= nextSweep) {
        for (const [key, until] of claimed) if (until <= time) claimed.delete(key);
        nextSweep = time + 60_000;
      }
      const until = claimed.get(id);
      if (until !== undefined && until > time) return false;
      claimed.set(id, expiresAt.getTime());
      return true;
    },
  };
}

export interface CaptchaSettings {
  /** The server secret the challenges are signed with (kept in the app store so every instance shares it). */
  hmacKey: string;
  /** The work: the largest number of hashes a solution may need (CAPTCHA_COST). */
  cost: number;
  /** How long a challenge stays solvable; 5 minutes by default. */
  lifetimeMs?: number;
}

export interface Captcha {
  /** A fresh challenge, in ALTCHA's JSON shape as the widget fetches it. */
  challenge(): Promise<AltchaChallenge>;
  /** True for a valid, unexpired, first-time solution (the widget's base64 payload); false for anything else. */
  verify(payload: string | undefined): Promise<boolean>;
}

const ALGORITHM = 'SHA-256';
const DEFAULT_LIFETIME_MS = 5 * 60_000;
/** A widget payload is about 700 characters; anything much longer is not one. */
const MAX_PAYLOAD_LENGTH = 4_096;
const hex = (max: number) =>
  z
    .string()
    .regex(/^(?:[0-9a-f]{2})+$/)
    .max(max);

/**
 * ALTCHA's challenge (protocol v2 of altcha-lib 2 and the altcha 3 widget), exactly the fields we issue: strict, so
 * a payload with anything added or changed is refused before the signature check even runs.
 */
export const altchaChallenge = z.strictObject({
  parameters: z.strictObject({
    algorithm: z.literal(ALGORITHM),
    cost: z.number().int().positive(),
    expiresAt: z.number().int().positive(),
    keyLength: z.number().int().positive().max(64),
    keyPrefix: hex(128),
    keySignature: hex(128),
    nonce: hex(64),
    salt: hex(64),
  }),
  signature: hex(128),
});
export type AltchaChallenge = z.infer<typeof altchaChallenge>;

const altchaPayload = z.strictObject({
  challenge: altchaChallenge,
  solution: z.strictObject({
    counter: z.number().int().nonnegative(),
    derivedKey: hex(128),
    time: z.number().nonnegative().optional(),
  }),
});

/** altcha-lib, loaded with the first challenge rather than at every start. */
const altcha = () => Promise.all([import('altcha-lib'), import('altcha-lib/algorithms/sha')]);

/**
 * The human check: self-hosted ALTCHA proof of work. A challenge hides a random counter from 1 to `cost`; the
 * browser finds it by hashing counters from 0 up (on average cost/2 SHA-256 hashes), while the server checks an
 * answer with one HMAC. Challenges are HMAC-signed, expire after `lifetimeMs`, and each is accepted once.
 */
export function createCaptcha(settings: CaptchaSettings, replay: ReplayGuard): Captcha {
  if (!settings.hmacKey) throw new Error('The human check needs an HMAC key.');
  if (!Number.isInteger(settings.cost) || settings.cost < 1) {
    throw new Error('The human check cost must be a whole number of at least 1.');
  }
  const lifetimeMs = settings.lifetimeMs ?? DEFAULT_LIFETIME_MS;
  // Separate keys for the challenge signature and the key signature, both derived from the one secret.
  const challengeSecret = subkey(settings.hmacKey, 'altcha challenge');
  const keySecret = subkey(settings.hmacKey, 'altcha derived key');

  return {
    async challenge() {
      const [{ createChallenge, randomInt }, { deriveKey }] = await altcha();
      const challenge = await createChallenge({
        algorithm: ALGORITHM,
        cost: 1, // one hash per counter: the work is set by the counter's range
        counter: randomInt(settings.cost),
        deriveKey,
        expiresAt: new Date(Date.now() + lifetimeMs),
        hmacSignatureSecret: challengeSecret,
        hmacKeySignatureSecret: keySecret,
      });
      return altchaChallenge.parse(challenge);
    },

    async verify(payload) {
      const parsed = decodePayload(payload);
      if (!parsed) return false;
      const { challenge, solution } = parsed;
      const now = Date.now();
      const expiresAt = challenge.parameters.expiresAt * 1000;
      // Also refuses a challenge that outlives the lifetime we give (signed long ago with other settings).
      if (expiresAt <= now || expiresAt > now + lifetimeMs + 1000) return false;
      let verified: boolean;
      try {
        const [{ verifySolution }, { deriveKey }] = await altcha();
        const result = await verifySolution({
          challenge,
          solution,
          deriveKey,
          hmacSignatureSecret: challengeSecret,
          hmacKeySignatureSecret: keySecret,
        });
        verified = result.verified;
      } catch {
        return false;
      }
      // Only a verified solution is remembered, so garbage cannot fill the guard.
      return verified && replay.claim(challenge.signature, new Date(expiresAt));
    },
  };
}

function subkey(secret: string, purpose: string): string {
  return createHmac('sha256', secret).update(purpose).digest('hex');
}

/** The widget's payload (base64 of JSON) parsed and checked for shape, or null. */
function decodePayload(payload: string | undefined): z.infer<typeof altchaPayload> | null {
  if (typeof payload !== 'string' || payload.length > MAX_PAYLOAD_LENGTH) return null;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(payload) || payload.length % 4 !== 0) return null;
  try {
    const checked = altchaPayload.safeParse(JSON.parse(Buffer.from(payload, 'base64').toString('utf8')));
    return checked.success ? checked.data : null;
  } catch {
    return null;
  }
}
