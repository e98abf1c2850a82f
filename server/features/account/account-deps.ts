import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '#server/config.ts';
import type { Mailer } from '#server/mail/mailer.ts';
import type { SmsSender } from '#server/sms/sms-sender.ts';
import type { AppStore } from '#server/store/app-store.ts';
import type { RateLimits } from '#server/plugins/rate-limits.ts';
import type { Captcha } from '#server/features/captcha/captcha.ts';
import type { SecretBox } from '#server/crypto/secret-box.ts';

/** What the account services work with; app.ts builds it once. */
export interface AccountDeps {
  store: AppStore;
  config: Pick<
    Config,
    'publicUrl' | 'sessionIdleMinutes' | 'sessionMaxHours' | 'passwordMaxAgeDays' | 'oauth' | 'oidc'
  >;
  mailer: Mailer;
  sms: SmsSender;
  captcha: Captcha;
  rateLimits: RateLimits;
  /** The time (tests move it). */
  now: () => Date;
  log: FastifyBaseLogger;
  /** Seals and opens the authenticator keys kept in the app store (crypto/secret-box.ts). */
  secrets: SecretBox;
  /** Sends started in the background (forgot password), awaited when the app closes. */
  pending: Set<Promise<void>>;
}

/** The rules of 0005 as numbers. */
export const accountRules = {
  codeLifetimeMs: 15 * 60 * 1000,
  codeLifetimeMinutes: 15,
  preSignInLifetimeMs: 10 * 60 * 1000,
  resendLockMs: 60 * 1000,
  lockAfterFailures: 5,
  lockMs: 15 * 60 * 1000,
  /** Wrong guesses a setup code survives. */
  setupCodeGuesses: 5,
} as const;
