import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { verifyAnswer } from '#common/contract/account.ts';
import { envelope, failureEnvelope } from '#common/contract/envelope.ts';
import {
  passkeyLoginOptions,
  passkeyLoginOptionsRequest,
  passkeyLoginVerifyRequest,
  passkeyRegisterRequest,
  passkeyRegistrationOptions,
  passkeySummary,
} from '#common/contract/passkeys.ts';
import { accountApiMessages as am, passkeyMessages as pm } from '#common/messages.ts';
import { ApiError, success } from '#server/plugins/error-envelope.ts';
import { perMinute } from '#server/plugins/rate-limits.ts';
import { requireRecentAuth, requireSignedIn, type SignedInAccount } from '#server/plugins/session.ts';
import type { AccountDeps } from './account-deps.ts';
import { verified, verifyLogin } from './login-service.ts';
import {
  listPasskeys,
  passkeySignIn,
  registerPasskey,
  registrationOptions,
  removePasskey,
  signInOptions,
} from './passkey-service.ts';

const tags = ['account'];
/** Every failure is the envelope with a message; 401 signed out, 403 re-authentication or XSRF, 429 too fast. */
const failures = { '4xx': failureEnvelope };
const recent = 'Needs a sign-in or POST /api/account/reauth within the last 10 minutes, else 403.';

/** The signed-in account (the route's preHandler has already refused everyone else). */
function accountOf(request: FastifyRequest): SignedInAccount {
  if (!request.account) throw new ApiError(401, am.signInRequired);
  return request.account;
}

/** Passkeys under /api/account (docs/decisions/0009-passkeys.md): registration, the list, removal and sign-in. */
export function passkeyRoutes(deps: AccountDeps): FastifyPluginAsyncZod {
  const limits = deps.rateLimits;
  return async (app) => {
    app.get(
      '/api/account/passkeys',
      {
        preValidation: requireSignedIn,
        schema: {
          tags,
          summary: "The signed-in account's passkeys, oldest first",
          response: { 200: envelope(z.array(passkeySummary)), ...failures },
        },
      },
      async (request) => success(await listPasskeys(deps, accountOf(request))),
    );

    app.post(
      '/api/account/passkeys/register/options',
      {
        preValidation: requireRecentAuth,
        config: perMinute(limits.codeCheck),
        schema: {
          tags,
          summary: 'Options for navigator.credentials.create: a new passkey for the signed-in account',
          description:
            `${recent} The challenge is bound to this session and good for 5 minutes, once. At most 20 passkeys ` +
            'an account (409).',
          response: { 200: envelope(passkeyRegistrationOptions), ...failures },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return success({ ...(await registrationOptions(deps, accountOf(request))) });
      },
    );

    app.post(
      '/api/account/passkeys/register/verify',
      {
        preValidation: requireRecentAuth,
        config: perMinute(limits.codeCheck),
        schema: {
          tags,
          summary: 'Check and store the new passkey; other sessions of the account end',
          description:
            `${recent} 400 when the challenge is not this session's, has expired or was used, or the ` +
            'credential does not verify (origin, RP ID, user verification, attestation); 409 when already registered.',
          body: passkeyRegisterRequest,
          response: { 200: envelope(passkeySummary), ...failures },
        },
      },
      async (request) =>
        success(await registerPasskey(deps, request, accountOf(request), request.body), pm.added),
    );

    app.delete(
      '/api/account/passkeys/:id',
      {
        preValidation: requireRecentAuth,
        schema: {
          tags,
          summary: 'Remove one of your passkeys; other sessions of the account end',
          description: `${recent} 404 for a passkey that is not yours.`,
          params: z.object({ id: z.coerce.number().int().positive().describe('The passkey id') }),
          response: { 200: envelope(z.null()), ...failures },
        },
      },
      async (request) => {
        await removePasskey(deps, request, accountOf(request), request.params.id);
        return success(null, pm.removed);
      },
    );

    app.post(
      '/api/account/login/passkey/options',
      {
        config: perMinute(limits.signIn),
        schema: {
          tags,
          summary:
            'Options for navigator.credentials.get: a passkey sign-in, or the passkey after a password',
          description:
            'Without key: a sign-in with a passkey alone (no human check: a passkey with user verification cannot ' +
            'be scripted without the authenticator); answers a ceremonyId. With the key of POST /api/account/login ' +
            "(allowed2fa has Passkey): that account's passkeys. The challenge is good for 5 minutes, once.",
          body: passkeyLoginOptionsRequest,
          response: { 200: envelope(passkeyLoginOptions), ...failures },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return success(await signInOptions(deps, request.body.key));
      },
    );

    app.post(
      '/api/account/login/passkey/verify',
      {
        config: perMinute(limits.codeCheck),
        schema: {
          tags,
          summary:
            'Sign in with the passkey; answers the session verification {token, user, links, expiration}',
          description:
            '{ceremonyId, response}: the passkey alone is the sign-in. {key, response}: the second step after the ' +
            'password (selected2fa Passkey). 400 when the challenge is unknown, expired or used; a failed check ' +
            'answers 401 "Failed to login... Please try again." (or "Failed to validate OTP." as the second step) ' +
            'and counts toward the lockout.',
          body: passkeyLoginVerifyRequest,
          response: { 200: envelope(verifyAnswer), ...failures },
        },
      },
      async (request) => {
        const { ceremonyId, key, response } = request.body;
        if (ceremonyId !== undefined)
          return success(await passkeySignIn(deps, request, ceremonyId, response));
        return verified(
          await verifyLogin(deps, request, { key: key ?? '', otp: '', selected2fa: 'Passkey' }, response),
        );
      },
    );
  };
}
