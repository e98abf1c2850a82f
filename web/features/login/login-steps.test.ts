import { describe, expect, it } from 'vitest';
import type { PreSignIn } from '#common/contract/account.ts';
import { EMAIL_CODE_LIFETIME_MS, RESEND_LOCK_MS } from '#common/limits.ts';
import { accountMessages } from '#common/messages.ts';
import {
  canChooseMethod,
  emailCodeExpiresAt,
  initialLoginState,
  loginReducer,
  needsSend,
  offersAnotherMethod,
  offersRecovery,
  resendLockedUntil,
  type LoginEvent,
  type LoginState,
} from './login-steps.ts';
import { readPreSignInToken } from './pre-sign-in-token.ts';

const emailOnly: PreSignIn = {
  key: 'k1',
  allowed2fa: ['Email'],
  preferred2fa: 'Email',
  disableSelect2fa: true,
};
const several: PreSignIn = {
  key: 'k2',
  allowed2fa: ['Email', 'Phone', 'Totp', 'Recovery'],
  preferred2fa: 'Email',
  disableSelect2fa: false,
};
const appFirst: PreSignIn = { ...several, key: 'k3', preferred2fa: 'Totp' };
const NOW = 1_000_000;

const run = (...events: LoginEvent[]): LoginState => events.reduce(loginReducer, initialLoginState);

describe('login steps', () => {
  it('starts on the credentials', () => {
    expect(initialLoginState.step).toBe('credentials');
    expect(initialLoginState.preSignIn).toBeNull();
  });

  it('goes straight to the code when the account has one method', () => {
    const state = run({ type: 'passwordAccepted', preSignIn: emailOnly, now: NOW });
    expect(state.step).toBe('code');
    expect(state.method).toBe('Email');
    expect(canChooseMethod(emailOnly)).toBe(false);
    expect(offersAnotherMethod(state)).toBe(false);
    expect(offersRecovery(state)).toBe(false);
  });

  it('offers the choice when several methods are allowed, the preferred one selected', () => {
    const state = run({ type: 'passwordAccepted', preSignIn: several, now: NOW });
    expect(state.step).toBe('choose');
    expect(state.method).toBe('Email');
    const picked = loginReducer(state, { type: 'methodPicked', method: 'Totp' });
    expect(picked.method).toBe('Totp');
    // A method the account does not have cannot be picked.
    expect(loginReducer(state, { type: 'methodPicked', method: 'Passkey' }).method).toBe('Email');
    const code = loginReducer(picked, { type: 'methodConfirmed' });
    expect(code.step).toBe('code');
    expect(code.method).toBe('Totp');
    expect(offersAnotherMethod(code)).toBe(true);
    expect(loginReducer(code, { type: 'anotherMethod' }).step).toBe('choose');
  });

  it('does not offer the choice when the server disables it', () => {
    const locked: PreSignIn = { ...several, disableSelect2fa: true };
    expect(run({ type: 'passwordAccepted', preSignIn: locked, now: NOW }).step).toBe('code');
  });

  it('resets the human check after a refused password and keeps the step', () => {
    const once = run({ type: 'passwordRefused' });
    const twice = loginReducer(once, { type: 'passwordRefused' });
    expect(once.step).toBe('credentials');
    expect(once.humanCheckKey).toBe(1);
    expect(twice.humanCheckKey).toBe(2);
  });

  it('counts the email code down from its sending: 15 minutes', () => {
    const state = run({ type: 'passwordAccepted', preSignIn: emailOnly, now: NOW });
    expect(emailCodeExpiresAt(state)).toBe(NOW + EMAIL_CODE_LIFETIME_MS);
    const resent = loginReducer(state, { type: 'codeSent', method: 'Email', now: NOW + 90_000 });
    expect(emailCodeExpiresAt(resent)).toBe(NOW + 90_000 + EMAIL_CODE_LIFETIME_MS);
  });

  it('has no countdown for the app, and sends nothing for it', () => {
    const state = run(
      { type: 'passwordAccepted', preSignIn: appFirst, now: NOW },
      { type: 'methodConfirmed' },
    );
    expect(state.method).toBe('Totp');
    expect(emailCodeExpiresAt(state)).toBeNull();
    expect(resendLockedUntil(state)).toBeNull();
    expect(needsSend(state)).toBe(false);
    // The email code was never sent (the app was preferred): choosing Email must ask for it.
    expect(needsSend(state, 'Email')).toBe(true);
  });

  it('locks resending for 60 seconds after each send, per method', () => {
    const state = run({ type: 'passwordAccepted', preSignIn: several, now: NOW });
    expect(resendLockedUntil(state)).toBe(NOW + RESEND_LOCK_MS);
    expect(needsSend(state, 'Email')).toBe(false);
    expect(needsSend(state, 'Phone')).toBe(true);
    const phone = loginReducer(loginReducer(state, { type: 'methodPicked', method: 'Phone' }), {
      type: 'methodConfirmed',
    });
    expect(resendLockedUntil(phone)).toBeNull();
    const sent = loginReducer(phone, { type: 'codeSent', method: 'Phone', now: NOW + 5_000 });
    expect(resendLockedUntil(sent)).toBe(NOW + 5_000 + RESEND_LOCK_MS);
    expect(sent.lockedUntil.Email).toBe(NOW + RESEND_LOCK_MS);
  });

  it("takes the server's 'Please wait N seconds' as the lock, and ignores other refusals", () => {
    const state = run({ type: 'preSignInArrived', preSignIn: emailOnly, now: NOW });
    const waited = loginReducer(state, {
      type: 'resendRefused',
      method: 'Email',
      message: accountMessages.resendWait(42),
      now: NOW + 1_000,
    });
    expect(resendLockedUntil(waited)).toBe(NOW + 1_000 + 42_000);
    const other = loginReducer(state, {
      type: 'resendRefused',
      method: 'Email',
      message: accountMessages.resendFailed,
      now: NOW + 1_000,
    });
    expect(other).toBe(state);
  });

  it('switches to a recovery code and back', () => {
    const state = run({
      type: 'preSignInArrived',
      preSignIn: { ...several, disableSelect2fa: true },
      now: NOW,
    });
    expect(offersRecovery(state)).toBe(true);
    const recovery = loginReducer(state, { type: 'recoveryChosen' });
    expect(recovery.method).toBe('Recovery');
    expect(recovery.codeAttempt).toBe(state.codeAttempt + 1);
    expect(offersRecovery(recovery)).toBe(false);
    expect(offersAnotherMethod(recovery)).toBe(true);
    const back = loginReducer(recovery, { type: 'anotherMethod' });
    expect(back.method).toBe('Email');
    expect(back.step).toBe('code');
    // Not offered to an account without recovery codes.
    const plain = run({ type: 'preSignInArrived', preSignIn: emailOnly, now: NOW });
    expect(loginReducer(plain, { type: 'recoveryChosen' })).toBe(plain);
  });

  it('goes from pu straight to the code entry, even when a choice exists', () => {
    const state = run({ type: 'preSignInArrived', preSignIn: several, now: NOW });
    expect(state.step).toBe('code');
    expect(state.method).toBe('Email');
    expect(state.preSignIn?.key).toBe('k2');
  });

  it('empties the code entry after a refused code', () => {
    const state = run({ type: 'preSignInArrived', preSignIn: emailOnly, now: NOW });
    expect(loginReducer(state, { type: 'codeRefused' }).codeAttempt).toBe(state.codeAttempt + 1);
  });

  it("moves on to a recovery's next step with the account's own methods", () => {
    const state = run({ type: 'preSignInArrived', preSignIn: emailOnly, now: NOW });
    const next = loginReducer(state, { type: 'nextStep', preSignIn: appFirst, now: NOW + 10_000 });
    expect(next.step).toBe('choose');
    expect(next.method).toBe('Totp');
    expect(next.sentAt).toEqual({});
  });

  it('starts over with a fresh human check', () => {
    const state = run(
      { type: 'passwordRefused' },
      { type: 'passwordAccepted', preSignIn: several, now: NOW },
    );
    const over = loginReducer(state, { type: 'startOver' });
    expect(over.step).toBe('credentials');
    expect(over.preSignIn).toBeNull();
    expect(over.humanCheckKey).toBe(2);
  });

  it('ignores events that do not fit the step', () => {
    const credentials = run();
    expect(loginReducer(credentials, { type: 'methodConfirmed' })).toBe(credentials);
    expect(loginReducer(credentials, { type: 'codeSent', method: 'Email', now: NOW })).toBe(credentials);
    const code = run({ type: 'passwordAccepted', preSignIn: emailOnly, now: NOW });
    expect(loginReducer(code, { type: 'passwordAccepted', preSignIn: several, now: NOW })).toBe(code);
  });
});

describe('readPreSignInToken (pu)', () => {
  const encode = (value: unknown) => btoa(JSON.stringify(value));

  it('reads the base64 JSON of a PreSignIn', () => {
    expect(readPreSignInToken(encode(several))).toEqual(several);
  });

  it('survives a + turned into a space', () => {
    const token = encode({ ...emailOnly, key: '>>>???' });
    expect(token).toContain('+');
    expect(readPreSignInToken(token.replace(/\+/g, ' '))).toEqual({ ...emailOnly, key: '>>>???' });
  });

  it('answers null for anything else', () => {
    for (const bad of [null, '', 'not base64!', btoa('hello'), encode({ key: 'k' }), encode([])]) {
      expect(readPreSignInToken(bad)).toBeNull();
    }
    expect(readPreSignInToken(encode({ ...emailOnly, preferred2fa: 'Totp' }))).toBeNull();
  });
});
