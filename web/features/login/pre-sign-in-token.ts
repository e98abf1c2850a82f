import { preSignIn, type PreSignIn } from '#common/contract/account.ts';

/**
 * Reads `pu` of /account/login (spec 000 §2): the base64 of the JSON of a PreSignIn, as sign-up, forgot password and
 * the social sign-in callback send it. Null for anything else (a damaged or hand-made link), never an exception.
 */
export function readPreSignInToken(pu: string | null | undefined): PreSignIn | null {
  if (!pu || pu.length > 4096) return null;
  try {
    // A '+' of base64 turns into a space when a link is built without encoding it.
    const binary = atob(pu.trim().replace(/ /g, '+'));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const parsed = preSignIn.safeParse(JSON.parse(new TextDecoder().decode(bytes)));
    return parsed.success && parsed.data.allowed2fa.includes(parsed.data.preferred2fa) ? parsed.data : null;
  } catch {
    return null;
  }
}
