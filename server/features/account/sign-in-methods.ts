import type { SignInMethod, TwoFactorMethod } from '#common/contract/account.ts';

/** The account fields that decide which second steps a sign-in may use. */
export interface MethodFields {
  email_verified_at: string | null;
  phone: string | null;
  phone_verified_at: string | null;
  totp_secret: string | null;
  totp_verified_at: string | null;
  preferred_2fa: string | null;
}

export interface SignInMethods {
  allowed2fa: SignInMethod[];
  preferred2fa: SignInMethod;
  disableSelect2fa: boolean;
}

/** The verified two-factor methods of an account, in the spec's order. */
export function verifiedMethods(user: MethodFields): TwoFactorMethod[] {
  const methods: TwoFactorMethod[] = [];
  if (user.email_verified_at) methods.push('Email');
  if (user.phone && user.phone_verified_at) methods.push('Phone');
  if (user.totp_secret && user.totp_verified_at) methods.push('Totp');
  return methods;
}

/**
 * allowed2fa, preferred2fa and disableSelect2fa (0005): the verified methods, Passkey when the account has one,
 * plus Recovery when codes are left; an account with nothing verified yet gets Email (the code confirms the
 * address). The preferred method is the chosen one when it is still verified, else the first allowed.
 */
export function signInMethodsOf(
  user: MethodFields,
  recoveryCodesLeft: number,
  passkeyCount = 0,
): SignInMethods {
  const verified: SignInMethod[] = verifiedMethods(user);
  if (passkeyCount > 0) verified.push('Passkey');
  const methods: SignInMethod[] = verified.length > 0 ? [...verified] : ['Email'];
  const chosen = verified.find((m) => m === user.preferred_2fa);
  const preferred: SignInMethod = chosen ?? methods[0] ?? 'Email';
  if (recoveryCodesLeft > 0 && verified.length > 0) methods.push('Recovery');
  return { allowed2fa: methods, preferred2fa: preferred, disableSelect2fa: methods.length === 1 };
}

/** Reads a stored preferred method back as a TwoFactorMethod (null when unset or unknown). */
export function storedPreferred(value: string | null): TwoFactorMethod | null {
  return value === 'Email' || value === 'Phone' || value === 'Totp' ? value : null;
}
