import type { PreSignIn, SignInMethod } from '#common/contract/account.ts';
import { EMAIL_CODE_LIFETIME_MS, RESEND_LOCK_MS } from '#common/limits.ts';
import { canResend, resendLockFromMessage } from '#web/ui/one-time-code/resend-lock.ts';

/*
 * The login page's steps (spec 000 §2, §4) as a reducer, so every transition is a plain function the tests call:
 * credentials, then the optional method choice, then the code (or recovery code, or passkey) of the chosen method.
 * Times come in with the events (epoch ms), so the machine itself never reads a clock.
 */

/** Methods the server sends a code by, and so has a send time and a resend lock. */
type SentBy = 'Email' | 'Phone';

export interface LoginState {
  step: 'credentials' | 'choose' | 'code';
  /** The answer to the password (or `pu`): the key and the methods; null on the credentials step. */
  preSignIn: PreSignIn | null;
  /** The method of the code step (the choice's selection on the choose step). */
  method: SignInMethod;
  /** When a code was last sent by each method (the email countdown starts there). */
  sentAt: Partial<Record<SentBy, number>>;
  /** Until when resending by each method is locked (60 s after a send, or as long as the server says). */
  lockedUntil: Partial<Record<SentBy, number>>;
  /** Changes after every refused password: the human check starts over (a solution works once). */
  humanCheckKey: number;
  /** Changes after every refused code: the code entry starts empty again. */
  codeAttempt: number;
}

export type LoginEvent =
  /** The password was accepted: the preferred method's code (Email or Phone) was just sent. */
  | { type: 'passwordAccepted'; preSignIn: PreSignIn; now: number }
  /** The password or the human check was refused. */
  | { type: 'passwordRefused' }
  /** `pu` (sign-up, forgot password, social sign-in): straight to the code of the preferred method. */
  | { type: 'preSignInArrived'; preSignIn: PreSignIn; now: number }
  /** A forgot-password recovery asks for the account's own second step after the emailed code. */
  | { type: 'nextStep'; preSignIn: PreSignIn; now: number }
  | { type: 'methodPicked'; method: SignInMethod }
  | { type: 'methodConfirmed' }
  | { type: 'codeSent'; method: SignInMethod; now: number }
  /** A resend was refused; a 'Please wait N seconds…' message locks for N seconds. */
  | { type: 'resendRefused'; method: SignInMethod; message: string; now: number }
  | { type: 'codeRefused' }
  | { type: 'recoveryChosen' }
  | { type: 'anotherMethod' }
  | { type: 'startOver' };

export const initialLoginState: LoginState = {
  step: 'credentials',
  preSignIn: null,
  method: 'Email',
  sentAt: {},
  lockedUntil: {},
  humanCheckKey: 0,
  codeAttempt: 0,
};

/** Whether the account offers a choice of second step (the server's allowed2fa and disableSelect2fa). */
export function canChooseMethod(preSignIn: PreSignIn | null): boolean {
  return preSignIn !== null && !preSignIn.disableSelect2fa && preSignIn.allowed2fa.length > 1;
}

function sentBy(method: SignInMethod): SentBy | null {
  return canResend(method) ? (method as SentBy) : null;
}

/** The state once a PreSignIn arrived whose preferred method's code the server has just sent. */
function withPreSignIn(state: LoginState, preSignIn: PreSignIn, now: number, choose: boolean): LoginState {
  const by = sentBy(preSignIn.preferred2fa);
  return {
    ...state,
    step: choose && canChooseMethod(preSignIn) ? 'choose' : 'code',
    preSignIn,
    method: preSignIn.preferred2fa,
    sentAt: by ? { [by]: now } : {},
    lockedUntil: by ? { [by]: now + RESEND_LOCK_MS } : {},
    codeAttempt: state.codeAttempt + 1,
  };
}

/** The login page's transitions; an event that does not fit the step leaves the state as it is. */
export function loginReducer(state: LoginState, event: LoginEvent): LoginState {
  switch (event.type) {
    case 'passwordAccepted':
      return state.step === 'credentials' ? withPreSignIn(state, event.preSignIn, event.now, true) : state;
    case 'passwordRefused':
      return { ...state, humanCheckKey: state.humanCheckKey + 1 };
    case 'preSignInArrived':
      return withPreSignIn(state, event.preSignIn, event.now, false);
    case 'nextStep':
      return state.step === 'code' ? withPreSignIn(state, event.preSignIn, event.now, true) : state;
    case 'methodPicked':
      if (state.step !== 'choose' || !state.preSignIn?.allowed2fa.includes(event.method)) return state;
      return { ...state, method: event.method };
    case 'methodConfirmed':
      return state.step === 'choose' ? { ...state, step: 'code', codeAttempt: state.codeAttempt + 1 } : state;
    case 'codeSent': {
      const by = sentBy(event.method);
      if (!by || state.preSignIn === null) return state;
      return {
        ...state,
        sentAt: { ...state.sentAt, [by]: event.now },
        lockedUntil: { ...state.lockedUntil, [by]: event.now + RESEND_LOCK_MS },
      };
    }
    case 'resendRefused': {
      const by = sentBy(event.method);
      const wait = resendLockFromMessage(event.message);
      if (!by || wait === null) return state;
      return { ...state, lockedUntil: { ...state.lockedUntil, [by]: event.now + wait } };
    }
    case 'codeRefused':
      return { ...state, codeAttempt: state.codeAttempt + 1 };
    case 'recoveryChosen':
      if (state.step !== 'code' || !state.preSignIn?.allowed2fa.includes('Recovery')) return state;
      return { ...state, method: 'Recovery', codeAttempt: state.codeAttempt + 1 };
    case 'anotherMethod':
      if (state.step !== 'code' || state.preSignIn === null) return state;
      return canChooseMethod(state.preSignIn)
        ? { ...state, step: 'choose' }
        : { ...state, method: state.preSignIn.preferred2fa, codeAttempt: state.codeAttempt + 1 };
    case 'startOver':
      return { ...initialLoginState, humanCheckKey: state.humanCheckKey + 1 };
  }
}

/** Whether the code step of `method` must first ask the server to send a code (none went out by it yet). */
export function needsSend(state: LoginState, method: SignInMethod = state.method): boolean {
  const by = sentBy(method);
  return by !== null && state.sentAt[by] === undefined;
}

/** When the emailed code of the code step expires (15 minutes after it was sent), or null when it is no email. */
export function emailCodeExpiresAt(state: LoginState): number | null {
  const sent = state.method === 'Email' ? state.sentAt.Email : undefined;
  return sent === undefined ? null : sent + EMAIL_CODE_LIFETIME_MS;
}

/** Until when resending the code step's method is locked, or null. */
export function resendLockedUntil(state: LoginState): number | null {
  const by = sentBy(state.method);
  return (by && state.lockedUntil[by]) ?? null;
}

/** Whether the code step offers 'Use a recovery code'. */
export function offersRecovery(state: LoginState): boolean {
  return state.method !== 'Recovery' && (state.preSignIn?.allowed2fa.includes('Recovery') ?? false);
}

/** Whether the code step offers 'Use another method' (back to the choice, or from a recovery code to the code). */
export function offersAnotherMethod(state: LoginState): boolean {
  return canChooseMethod(state.preSignIn) || state.method !== state.preSignIn?.preferred2fa;
}
