import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { socialLinkStart, socialProviders } from '#common/contract/social.ts';
import { envelope, failureEnvelope } from '#common/contract/envelope.ts';
import { accountApiMessages as am, socialMessages as sm } from '#common/messages.ts';
import { ApiError, success } from '#server/plugins/error-envelope.ts';
import { perMinute } from '#server/plugins/rate-limits.ts';
import { requireRecentAuth, type SignedInAccount } from '#server/plugins/session.ts';
import type { AccountDeps } from './account-deps.ts';
import {
  OAUTH_TRANSACTION_MS,
  ProviderUnreachable,
  createSocialSignIn,
  finishAuthorization,
  providerLabel,
  safeReturnPath,
  socialProvidersOf,
  startAuthorization,
  unlinkProvider,
  type SocialSignIn,
} from './social-service.ts';

const tags = ['account'];
const failures = { '4xx': failureEnvelope };
const providerParam = z.object({
  provider: z
    .string()
    .max(30)
    .describe('google, microsoft, facebook, or oidc (the OpenID Connect provider of OIDC_ISSUER)'),
});
const recent = 'Needs a sign-in or POST /api/account/reauth within the last 10 minutes, else 403.';

/** The cookie that ties an authorization request to the browser that started it (its value is the state). */
function stateCookieName(provider: string): string {
  return `dbui-oauth-${provider}`;
}

function setStateCookie(deps: AccountDeps, reply: FastifyReply, provider: string, state: string): void {
  reply.setCookie(stateCookieName(provider), state, {
    path: `/api/account/login/${provider}/callback`,
    httpOnly: true,
    // Lax: sent on the provider's top-level redirect back to the callback, never on cross-site sub-requests.
    sameSite: 'lax',
    secure: deps.config.publicUrl.startsWith('https:'),
    maxAge: OAUTH_TRANSACTION_MS / 1000,
  });
}

/** Why a sign-in or link could not start, in the log: one line for an unreachable provider (what to fix is in the
 * sentence), the error with its stack for anything else. */
function logStartFailure(request: FastifyRequest, error: unknown, provider: string, what: string): void {
  if (error instanceof ProviderUnreachable) request.log.warn({ provider }, error.message);
  else request.log.error({ err: error, provider }, what);
}

function accountOf(request: FastifyRequest): SignedInAccount {
  if (!request.account) throw new ApiError(401, am.signInRequired);
  return request.account;
}

/** Social sign-in under /api/account (docs/decisions/0005-accounts.md, "Social sign-in"). */
export function socialRoutes(deps: AccountDeps): FastifyPluginAsyncZod {
  const social: SocialSignIn = createSocialSignIn(deps);
  return async (app) => {
    // Issuers given in the configuration are checked at start, without holding the start up (0060).
    app.addHook('onReady', async () => social.warmUp());

    app.get(
      '/api/account/providers',
      {
        schema: {
          tags,
          summary:
            'The social sign-in providers set up here and, when signed in, the ones linked to the account',
          response: { 200: envelope(socialProviders), ...failures },
        },
      },
      async (request) => success(await socialProvidersOf(social, request.account)),
    );

    app.get(
      '/api/account/login/:provider',
      {
        config: perMinute(deps.rateLimits.signIn),
        schema: {
          tags,
          summary:
            "Sign in with Google, Microsoft, Facebook or the OpenID Connect provider (oidc): redirects (302) to the provider's sign-in page",
          description:
            'A browser navigation, not an API call. Authorization code with PKCE (S256), state and (OpenID Connect) ' +
            'nonce; the state is also kept in an httpOnly cookie for the callback. r: a path of the web app to return ' +
            'to after sign-in. A provider that is not set up answers 404 "Sign-in with … is not set up on this server."',
          params: providerParam,
          querystring: z.object({ r: z.string().max(500).optional() }),
          response: { 404: failureEnvelope },
        },
      },
      async (request, reply) => {
        const { provider } = request.params;
        social.require(provider);
        try {
          const started = await startAuthorization(social, provider, {
            mode: 'sign-in',
            userId: null,
            returnTo: safeReturnPath(request.query.r),
          });
          setStateCookie(deps, reply, provider, started.state);
          return reply.header('cache-control', 'no-store').redirect(started.url, 302);
        } catch (error) {
          logStartFailure(request, error, provider, 'social sign-in could not start');
          const page = new URL(`${deps.config.publicUrl}/account/login`);
          page.searchParams.set('error', sm.unavailable(providerLabel(deps.config, provider)));
          return reply.redirect(page.href, 302);
        }
      },
    );

    app.get(
      '/api/account/login/:provider/callback',
      {
        config: perMinute(deps.rateLimits.signIn),
        schema: {
          tags,
          summary: "The provider's redirect back: redirects (302) to the web app",
          description:
            'Checks the state (single use, 10 minutes, this provider, the browser that started), exchanges the code ' +
            'with the PKCE verifier and validates the ID token (issuer, audience, nonce, expiry). Sign-in: the ' +
            'account linked to the provider and subject (a first sign-in creates one) continues to its second ' +
            'factor at /account/login?pu=…; link: back to /account. Failures go to /account/login?error=… (or ' +
            '/account?error=… for a link) with a sentence to show.',
          params: providerParam,
          querystring: z.looseObject({
            code: z.string().optional(),
            state: z.string().optional(),
            error: z.string().optional(),
          }),
          response: { 404: failureEnvelope },
        },
      },
      async (request, reply) => {
        const { provider } = request.params;
        social.require(provider);
        const cookieName = stateCookieName(provider);
        const outcome = await finishAuthorization(social, request, provider, request.cookies[cookieName]);
        reply.clearCookie(cookieName, { path: `/api/account/login/${provider}/callback` });
        return reply.header('cache-control', 'no-store').redirect(outcome.location, 302);
      },
    );

    app.post(
      '/api/account/providers/:provider/link',
      {
        preHandler: requireRecentAuth,
        config: perMinute(deps.rateLimits.signIn),
        schema: {
          tags,
          summary:
            'Start linking a provider to the signed-in account: answers the URL to navigate the browser to',
          description:
            `${recent} The provider's callback links the identity and returns to /account; an identity linked to ` +
            'another account is refused ("That … account is already linked to another DBUI account.").',
          params: providerParam,
          response: { 200: envelope(socialLinkStart), ...failures },
        },
      },
      async (request, reply) => {
        const { provider } = request.params;
        social.require(provider);
        let started: { url: string; state: string };
        try {
          started = await startAuthorization(social, provider, {
            mode: 'link',
            userId: accountOf(request).userId,
            returnTo: null,
          });
        } catch (error) {
          if (error instanceof ApiError) throw error;
          logStartFailure(request, error, provider, 'linking a provider could not start');
          throw new ApiError(503, sm.unavailable(providerLabel(deps.config, provider)));
        }
        setStateCookie(deps, reply, provider, started.state);
        return success({ url: started.url });
      },
    );

    app.delete(
      '/api/account/providers/:provider',
      {
        preHandler: requireRecentAuth,
        schema: {
          tags,
          summary: 'Unlink a provider from the signed-in account',
          description: `${recent} An account without a password or passkey cannot unlink its last provider (409).`,
          params: providerParam,
          response: { 200: envelope(z.null()), ...failures },
        },
      },
      async (request) => {
        const label = await unlinkProvider(deps, request, accountOf(request), request.params.provider);
        return success(null, sm.unlinked(label));
      },
    );
  };
}
