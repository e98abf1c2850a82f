import { z } from 'zod';
import { passkeyMessages as pm } from '#common/messages.ts';

/*
 * Passkeys (WebAuthn) under /api/account (docs/decisions/0005-accounts.md, 0009-passkeys.md). The options are the
 * JSON forms of WebAuthn's PublicKeyCredentialCreationOptions and …RequestOptions: pass them to
 * @simplewebauthn/browser's startRegistration({optionsJSON}) / startAuthentication({optionsJSON}) (or to
 * PublicKeyCredential.parseCreationOptionsFromJSON), and send back what they answer (PublicKeyCredential.toJSON()).
 */

/** How many passkeys one account may have. */
export const PASSKEYS_MAX = 20;
/** Longest passkey name. */
export const PASSKEY_NAME_MAX_LENGTH = 64;

const base64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, 'Must be base64url.');

/** POST /api/account/passkeys/register/options: for navigator.credentials.create. The parts are WebAuthn's own
 * shapes, passed through as they are (so only the challenge is spelled out here). */
export const passkeyRegistrationOptions = z
  .looseObject({
    challenge: z.string().describe('base64url; good for 5 minutes, once'),
    rp: z.unknown().describe('{name: "DBUI", id: the host name of PUBLIC_URL}'),
    user: z.unknown().describe('{id: an opaque base64url handle, name: the username, displayName}'),
    pubKeyCredParams: z.unknown().describe('[{type: "public-key", alg}]: EdDSA, ES256, RS256'),
    excludeCredentials: z.unknown().optional().describe("[{id, type, transports}]: the account's passkeys"),
    authenticatorSelection: z.unknown().optional().describe('Resident key and user verification required'),
  })
  .describe('PublicKeyCredentialCreationOptionsJSON');
export type PasskeyRegistrationOptions = z.infer<typeof passkeyRegistrationOptions>;

/** What every PublicKeyCredential.toJSON() has beside its `response`. */
const credentialFields = {
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.looseObject({}).optional(),
};

/** What navigator.credentials.create answers, as JSON. */
export const passkeyRegistrationResponse = z
  .object({
    ...credentialFields,
    response: z.object({
      clientDataJSON: base64url(10_000),
      attestationObject: base64url(100_000),
      authenticatorData: base64url(100_000).optional(),
      transports: z.array(z.string().max(30)).max(10).optional(),
      publicKeyAlgorithm: z.number().int().optional(),
      publicKey: base64url(10_000).optional(),
    }),
  })
  .describe('RegistrationResponseJSON: PublicKeyCredential.toJSON() of the created credential');
export type PasskeyRegistrationResponse = z.infer<typeof passkeyRegistrationResponse>;

/** POST /api/account/passkeys/register/verify. */
export const passkeyRegisterRequest = z.object({
  response: passkeyRegistrationResponse,
  name: z
    .string()
    .trim()
    .max(PASSKEY_NAME_MAX_LENGTH, `A passkey name cannot be more than ${PASSKEY_NAME_MAX_LENGTH} characters.`)
    .optional()
    .describe('A name to tell passkeys apart; default "Passkey N"'),
});
export type PasskeyRegisterRequest = z.infer<typeof passkeyRegisterRequest>;

/** A passkey as its owner sees it (never the key itself). */
export const passkeySummary = z.object({
  id: z.number().int(),
  name: z.string(),
  createdAt: z.string().describe('ISO-8601 UTC'),
  lastUsedAt: z.string().nullable().describe('The last sign-in with it, ISO-8601 UTC'),
});
export type PasskeySummary = z.infer<typeof passkeySummary>;

/** POST /api/account/login/passkey/options. */
export const passkeyLoginOptionsRequest = z.object({
  key: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'The pre-sign-in key of POST /api/account/login when the passkey is the second step (allowed2fa has ' +
        "Passkey): the options then list that account's passkeys. Without it: a passkey sign-in on its own.",
    ),
});
export type PasskeyLoginOptionsRequest = z.infer<typeof passkeyLoginOptionsRequest>;

/** The answer of login/passkey/options: options for navigator.credentials.get and the ceremony they belong to. */
export const passkeyLoginOptions = z.object({
  options: z
    .looseObject({
      challenge: z.string().describe('base64url; good for 5 minutes, once'),
      rpId: z.string().optional(),
      allowCredentials: z
        .unknown()
        .optional()
        .describe(
          '[{id, type, transports}]; empty for a sign-in on its own (the authenticator offers its passkeys)',
        ),
      userVerification: z.string().optional(),
    })
    .describe('PublicKeyCredentialRequestOptionsJSON (user verification required)'),
  ceremonyId: z
    .string()
    .nullable()
    .describe('Send it back to login/passkey/verify (a sign-in on its own); null when a key was sent'),
});
export type PasskeyLoginOptions = z.infer<typeof passkeyLoginOptions>;

/** What navigator.credentials.get answers, as JSON. */
export const passkeyAuthenticationResponse = z
  .object({
    ...credentialFields,
    response: z.object({
      clientDataJSON: base64url(10_000),
      authenticatorData: base64url(100_000),
      signature: base64url(10_000),
      userHandle: base64url(200).nullish(),
    }),
  })
  .describe('AuthenticationResponseJSON: PublicKeyCredential.toJSON() of the assertion');
export type PasskeyAuthenticationResponse = z.infer<typeof passkeyAuthenticationResponse>;

/**
 * POST /api/account/login/passkey/verify: `{ceremonyId, response}` signs in with the passkey alone; `{key,
 * response}` completes a password sign-in with the passkey as its second step. (login/verify does not take
 * selected2fa Passkey: an authenticator's answer is not a code.) Either way the answer is the session verification.
 */
export const passkeyLoginVerifyRequest = z
  .object({
    ceremonyId: z.string().min(1).max(200).optional().describe('From login/passkey/options without a key'),
    key: z.string().min(1).max(200).optional().describe('The pre-sign-in key of POST /api/account/login'),
    response: passkeyAuthenticationResponse,
  })
  .refine((v) => (v.ceremonyId === undefined) !== (v.key === undefined), { message: pm.keyOrCeremony });
export type PasskeyLoginVerifyRequest = z.infer<typeof passkeyLoginVerifyRequest>;
