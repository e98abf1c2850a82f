import { randomInt } from 'node:crypto';
import type * as OpenidClient from 'openid-client';
import type { Configuration, CustomFetch } from 'openid-client';
import type { FastifyRequest } from 'fastify';
import {
  socialProviderNames,
  type SocialProviderName,
  type SocialProviders,
} from '#common/contract/social.ts';
import {
  accountApiMessages as am,
  accountMessages as m,
  loginMessages as lm,
  socialMessages as sm,
} from '#common/messages.ts';
import { oauthProviderNames, type OAuthProviderSetting } from '#server/config.ts';
import { writeAudit } from '#server/store/audit.ts';
import {
  insertOAuthTransaction,
  takeOAuthTransaction,
  type OAuthTransactionRow,
} from '#server/store/oauth-transactions.ts';
import { countPasskeys } from '#server/store/passkeys.ts';
import { countRecoveryCodes } from '#server/store/recovery-codes.ts';
import { USER_ROLE_ID } from '#server/store/roles.ts';
import {
  deleteIdentity,
  findIdentity,
  identitiesOfUser,
  insertIdentity,
  touchIdentity,
} from '#server/store/user-identities.ts';
import {
  addUserRole,
  findUserById,
  findUserByUsername,
  insertUser,
  updateUser,
  type UserRow,
} from '#server/store/users.ts';
import { safeEqual, sha256Hex } from '#server/crypto/tokens.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import type { SignedInAccount } from '#server/plugins/session.ts';
import type { AccountDeps } from './account-deps.ts';
import { isLocked } from './lockout.ts';
import { beginAttempt, encodePreSignIn } from './login-service.ts';
import { signInMethodsOf } from './sign-in-methods.ts';
import {
  allowsInsecureRequests,
  fetchOAuth2Profile,
  genericOidc,
  providerFor,
  providerProblem,
  socialProviderTable,
  type ProviderProfile,
  type SocialProvider,
} from './social-providers.ts';

/*
 * Social sign-in (docs/decisions/0005-accounts.md, "Social sign-in"; 0010-social-sign-in.md). The start stores the authorization request's
 * checks (state as SHA-256, nonce, PKCE verifier; 10 minutes, single use) and sends the browser to the provider;
 * the browser also keeps the state in a cookie, so a callback only completes in the browser that started it. The
 * callback checks the state, exchanges the code with the verifier (openid-client checks the ID token's issuer,
 * audience, nonce and expiry), finds the account by provider and subject only, and then asks for the account's
 * second factor exactly as a password sign-in does.
 */

/** How long an authorization request may take. */
export const OAUTH_TRANSACTION_MS = 10 * 60 * 1000;
/** Longest return path kept. */
const RETURN_PATH_MAX = 500;

export type SocialMode = 'sign-in' | 'link';

/** A configured provider with its client, discovered once (and again after a failure). */
export interface SocialSignIn {
  deps: AccountDeps;
  /** The providers set up on this server, in the table's order, the generic one last. */
  configured: SocialProviderName[];
  /** The provider and its setting; 404 'Sign-in with … is not set up on this server.' otherwise. */
  require(name: string): { provider: SocialProvider; setting: OAuthProviderSetting };
  /** The openid-client configuration of a configured provider; a ProviderUnreachable when discovery fails. */
  client(name: SocialProviderName): Promise<Configuration>;
  /** Discovers, in the background, every provider whose issuer the configuration gives (0060); a failure is one
   * warning line naming the variable, and the provider is asked again at its next use. */
  warmUp(): void;
}

/** A social sign-in that ends on a page of the web app with this sentence; `reason` goes to the audit. */
export class SocialFailure extends Error {
  constructor(
    readonly reason: string,
    message: string,
    readonly detail: string | null = null,
  ) {
    super(message);
  }
}

/** A provider whose discovery (or client) could not be had: the message is one line for the log, naming the
 * variable to look at and what the issuer answered. */
export class ProviderUnreachable extends Error {}

/** The label of a provider name, also for names that are not configured ('google' → 'Google'; 'oidc' → OIDC_LABEL,
 * or "Single sign-on" when unset). */
export function providerLabel(config: AccountDeps['config'], name: string): string {
  if (name === 'oidc') return config.oidc?.label ?? lm.socialNames.oidc;
  const known = oauthProviderNames.find((provider) => provider === name);
  return known ? socialProviderTable[known].label : name.slice(0, 30);
}

/** The variable that names a provider's issuer, for messages to the operator. */
function issuerVariable(name: SocialProviderName): string {
  return name === 'oidc' ? 'OIDC_ISSUER' : `OAUTH_${name.toUpperCase()}_ISSUER`;
}

/** The providers of the configuration that can be used; the others are logged and left out. */
export function createSocialSignIn(deps: AccountDeps): SocialSignIn {
  const usable = new Map<SocialProviderName, { provider: SocialProvider; setting: OAuthProviderSetting }>();
  const candidates: { provider: SocialProvider; setting: OAuthProviderSetting }[] = [];
  for (const name of oauthProviderNames) {
    const setting = deps.config.oauth[name];
    if (setting) candidates.push({ provider: providerFor(name, setting), setting });
  }
  const oidcSetting = deps.config.oidc;
  if (oidcSetting) candidates.push({ provider: genericOidc(oidcSetting), setting: oidcSetting });
  for (const candidate of candidates) {
    const problem = providerProblem(candidate.provider);
    if (problem) {
      deps.log.warn(`Sign-in with ${candidate.provider.label} is off: ${problem}.`);
      continue;
    }
    usable.set(candidate.provider.name, candidate);
  }
  const clients = new Map<SocialProviderName, Promise<Configuration>>();

  function require(name: string) {
    const known = socialProviderNames.find((provider) => provider === name);
    const found = known ? usable.get(known) : undefined;
    if (!found) throw new ApiError(404, sm.notConfigured(providerLabel(deps.config, name)));
    return found;
  }

  function client(name: SocialProviderName): Promise<Configuration> {
    let pending = clients.get(name);
    if (!pending) {
      const { provider, setting } = require(name);
      pending = makeClient(provider, setting).catch((error: unknown) => {
        // A provider that could not be reached is asked again next time.
        clients.delete(name);
        throw new ProviderUnreachable(
          `Sign-in with ${provider.label} is unavailable: ${issuerVariable(name)} ${discoveryProblem(provider, error)}`,
          { cause: error },
        );
      });
      clients.set(name, pending);
    }
    return pending;
  }

  return {
    deps,
    configured: [...usable.keys()],
    require,
    client,
    warmUp() {
      for (const [name, { setting }] of usable) {
        if (!setting.issuer) continue;
        client(name).then(
          () =>
            deps.log.info(
              `Sign-in with ${providerLabel(deps.config, name)}: ${setting.issuer} answered discovery.`,
            ),
          (error: unknown) =>
            deps.log.warn(
              `${error instanceof Error ? error.message : String(error)} DBUI tries again when someone uses the button.`,
            ),
        );
      }
    },
  };
}

/**
 * What went wrong with a provider's discovery, in words for the operator: no connection, no answer in time, an
 * HTTP status, not a discovery document, or a document that names another issuer (the usual slip: a trailing
 * slash, or the realm's address instead of the issuer's).
 */
export function discoveryProblem(provider: SocialProvider, error: unknown): string {
  const where =
    provider.protocol === 'oidc'
      ? `${provider.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`
      : provider.issuer;
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  const cause: unknown = error instanceof Error ? error.cause : undefined;
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `${where} did not answer within 10 seconds.`;
  if (code === 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED' && cause && typeof cause === 'object') {
    const body = 'body' in cause ? cause.body : undefined;
    const named = body && typeof body === 'object' && 'issuer' in body ? String(body.issuer) : '?';
    return `is "${provider.issuer}", but ${where} names the issuer "${named.slice(0, 200)}": set it to exactly that.`;
  }
  if (code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' && cause instanceof Response)
    return `${where} answered HTTP ${cause.status}, not a discovery document: is the issuer right?`;
  if (code === 'OAUTH_RESPONSE_IS_NOT_JSON')
    return `${where} answered something other than JSON: is the issuer right?`;
  if (error instanceof TypeError && cause instanceof Error) {
    const reason = 'code' in cause && typeof cause.code === 'string' ? cause.code : cause.message;
    return `${where} could not be reached (${reason.slice(0, 100)}).`;
  }
  return `${where} could not be used (${describe(error)}).`;
}

/** openid-client (with oauth4webapi and jose), loaded with the first social sign-in rather than at every start;
 * `describe` reads its error classes once it is loaded (an error of openid-client implies it is). */
let openidClient: typeof OpenidClient | undefined;
async function oidc(): Promise<typeof OpenidClient> {
  return (openidClient ??= await import('openid-client'));
}

/**
 * The openid-client configuration of a provider: discovered from the issuer (OpenID Connect) or built from the
 * fixed endpoints (OAuth 2). `fetchImpl` replaces the network (unit tests).
 */
export async function makeClient(
  provider: SocialProvider,
  setting: OAuthProviderSetting,
  fetchImpl?: CustomFetch,
): Promise<Configuration> {
  // Plain http only for a provider on this machine (tests): providerProblem refuses it anywhere else.
  const insecure = allowsInsecureRequests(provider.issuer);
  const lib = await oidc();
  const { Configuration, allowInsecureRequests, discovery } = lib;
  let client: Configuration;
  if (provider.protocol === 'oidc') {
    client = await discovery(new URL(provider.issuer), setting.clientId, setting.clientSecret, undefined, {
      timeout: 10,
      ...(insecure ? { execute: [allowInsecureRequests] } : {}),
      ...(fetchImpl ? { [lib.customFetch]: fetchImpl } : {}),
    });
  } else {
    client = new Configuration(
      {
        issuer: provider.issuer,
        authorization_endpoint: provider.authorizationEndpoint,
        token_endpoint: provider.tokenEndpoint,
      },
      setting.clientId,
      setting.clientSecret,
    );
    if (insecure) allowInsecureRequests(client);
    if (fetchImpl) client[lib.customFetch] = fetchImpl;
  }
  client.timeout = 10;
  return client;
}

/** The redirect URI registered with every provider. */
export function redirectUriOf(deps: AccountDeps, name: SocialProviderName): string {
  return `${deps.config.publicUrl}/api/account/login/${name}/callback`;
}

/** A path on this site to return to after sign-in, or null (absolute and protocol-relative addresses are dropped:
 * no open redirect). */
export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > RETURN_PATH_MAX) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  return /[\u0000-\u001f\u007f\\]/.test(value) ? null : value;
}

/**
 * Starts an authorization request: stores its checks and answers the provider's authorization URL and the state
 * (which the route also puts in the browser's cookie). PKCE S256 always; a nonce for OpenID Connect.
 */
export async function startAuthorization(
  social: SocialSignIn,
  name: string,
  purpose: { mode: SocialMode; userId: number | null; returnTo: string | null },
): Promise<{ url: string; state: string }> {
  const { provider } = social.require(name);
  const client = await social.client(provider.name);
  const deps = social.deps;
  const now = deps.now();
  const {
    buildAuthorizationUrl,
    calculatePKCECodeChallenge,
    randomNonce,
    randomPKCECodeVerifier,
    randomState,
  } = await oidc();
  const state = randomState();
  const codeVerifier = randomPKCECodeVerifier();
  const nonce = provider.protocol === 'oidc' ? randomNonce() : null;
  await insertOAuthTransaction(
    deps.store.db,
    {
      stateHash: sha256Hex(state),
      provider: provider.name,
      mode: purpose.mode,
      userId: purpose.userId,
      nonce,
      codeVerifier,
      returnTo: purpose.returnTo,
      expiresAt: new Date(now.getTime() + OAUTH_TRANSACTION_MS).toISOString(),
    },
    now.toISOString(),
    new Date(now.getTime() - 86_400_000).toISOString(),
  );
  const parameters: Record<string, string> = {
    redirect_uri: redirectUriOf(deps, provider.name),
    response_type: 'code',
    scope: provider.scope,
    state,
    code_challenge: await calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  };
  if (nonce) parameters.nonce = nonce;
  return { url: buildAuthorizationUrl(client, parameters).href, state };
}

/** Where the browser goes after a callback. */
export interface CallbackOutcome {
  location: string;
}

/**
 * GET /api/account/login/{provider}/callback: checks the state (single use, not expired, this provider, this
 * browser), exchanges the code, reads the person and signs in (second factor next) or links. Every failure is a
 * SocialFailure answered as a page of the web app with the sentence, and audited as social.failed.
 */
export async function finishAuthorization(
  social: SocialSignIn,
  request: FastifyRequest,
  name: string,
  stateCookie: string | undefined,
): Promise<CallbackOutcome> {
  const { provider, setting } = social.require(name);
  const deps = social.deps;
  const mark = request.url.indexOf('?');
  const query = new URLSearchParams(mark < 0 ? '' : request.url.slice(mark + 1));
  let transaction: OAuthTransactionRow | undefined;
  try {
    const state = query.get('state');
    if (!state) throw new SocialFailure('state-missing', sm.stateInvalid);
    const now = deps.now();
    transaction = await takeOAuthTransaction(deps.store.db, sha256Hex(state), now.toISOString());
    if (!transaction) throw new SocialFailure('state-unknown-or-used', sm.stateInvalid);
    if (!stateCookie || !safeEqual(stateCookie, state))
      throw new SocialFailure('state-other-browser', sm.stateInvalid);
    if (transaction.provider !== provider.name)
      throw new SocialFailure('state-other-provider', sm.stateInvalid);
    if (transaction.expires_at <= now.toISOString())
      throw new SocialFailure('state-expired', sm.stateInvalid);

    const error = query.get('error');
    if (error) {
      throw error === 'access_denied'
        ? new SocialFailure('denied', sm.cancelled(provider.label))
        : new SocialFailure('provider-error', sm.notConfirmed(provider.label), error.slice(0, 100));
    }
    const profile = await confirmPerson(social, provider, setting, request, query, state, transaction);
    if (transaction.mode === 'link') return await linkIdentity(deps, request, provider, profile, transaction);
    return await signInWith(deps, request, provider, profile, transaction);
  } catch (error) {
    if (!(error instanceof SocialFailure)) throw error;
    const mode = transaction?.mode === 'link' ? 'link' : 'sign-in';
    await writeAudit(deps.store.db, {
      userId: transaction?.user_id ?? null,
      action: 'social.failed',
      target: `provider:${provider.name}`,
      detail: { reason: error.reason, mode, ...(error.detail ? { error: error.detail } : {}) },
      address: request.ip,
    });
    return {
      location: webPage(deps, mode === 'link' ? '/account' : '/account/login', { error: error.message }),
    };
  }
}

/** The code exchange and the person it names; every refusal of the protocol ends as 'could not confirm'. */
async function confirmPerson(
  social: SocialSignIn,
  provider: SocialProvider,
  setting: OAuthProviderSetting,
  request: FastifyRequest,
  query: URLSearchParams,
  state: string,
  transaction: OAuthTransactionRow,
): Promise<ProviderProfile> {
  let client: Configuration;
  try {
    client = await social.client(provider.name);
  } catch (error) {
    throw new SocialFailure('unreachable', sm.unavailable(provider.label), describe(error));
  }
  const currentUrl = new URL(`${redirectUriOf(social.deps, provider.name)}?${query.toString()}`);
  try {
    const { authorizationCodeGrant, fetchUserInfo } = await oidc();
    const tokens = await authorizationCodeGrant(client, currentUrl, {
      pkceCodeVerifier: transaction.code_verifier,
      expectedState: state,
      ...(provider.protocol === 'oidc' ? { expectedNonce: transaction.nonce ?? '' } : {}),
    });
    if (provider.protocol === 'oauth2') {
      const profile = await fetchOAuth2Profile(provider, tokens.access_token, setting.clientSecret);
      if (!profile) throw new SocialFailure('no-subject', sm.notConfirmed(provider.label));
      return profile;
    }
    const claims = tokens.claims();
    const profile = provider.profileOf(claims);
    if (!claims || !profile) throw new SocialFailure('no-subject', sm.notConfirmed(provider.label));
    if (!profile.email && client.serverMetadata().userinfo_endpoint) {
      // Some providers put the email only in UserInfo; the subject there must be the ID token's.
      const info = provider.profileOf(await fetchUserInfo(client, tokens.access_token, claims.sub));
      if (info?.email) return { ...profile, email: info.email, emailVerified: info.emailVerified };
    }
    return profile;
  } catch (error) {
    if (error instanceof SocialFailure) throw error;
    request.log.warn({ err: error, provider: provider.name }, 'social sign-in was not confirmed');
    throw new SocialFailure('not-confirmed', sm.notConfirmed(provider.label), describe(error));
  }
}

/** An error in a line for the audit: openid-client's code and message, with the messages of its causes (which
 * name the claim or attribute that failed). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown';
  const code = 'code' in error && typeof error.code === 'string' ? `${error.code}: ` : '';
  const messages: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 3 && current instanceof Error; depth += 1) {
    messages.push(current.message);
    // An OAuth error answer (ResponseBodyError, AuthorizationResponseError): its error code and description.
    if (
      openidClient &&
      (current instanceof openidClient.ResponseBodyError ||
        current instanceof openidClient.AuthorizationResponseError)
    ) {
      messages.push(current.error, current.error_description ?? '');
    }
    current = current.cause;
  }
  return `${code}${messages.filter(Boolean).join(' / ')}`.slice(0, 300);
}

/** A page of the web app with query parameters. */
function webPage(deps: AccountDeps, path: string, parameters: Record<string, string | null>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(parameters)) if (value !== null) query.set(key, value);
  const search = query.toString();
  return `${deps.config.publicUrl}${path}${search ? `?${search}` : ''}`;
}

/**
 * Sign-in mode: the account linked to (provider, subject), or a new one; never an existing account found by email.
 * Then the account's second factor, as after a password: a pre-sign-in key and a code by the preferred method, and
 * the web app's code entry (`/account/login?pu=…`).
 */
async function signInWith(
  deps: AccountDeps,
  request: FastifyRequest,
  provider: SocialProvider,
  profile: ProviderProfile,
  transaction: OAuthTransactionRow,
): Promise<CallbackOutcome> {
  const db = deps.store.db;
  const now = deps.now();
  let created = false;
  let user: UserRow | undefined;
  const identity = await findIdentity(db, provider.name, profile.subject);
  if (identity) {
    user = await findUserById(db, identity.user_id);
    await touchIdentity(db, identity.id, profile.email, now.toISOString());
  } else {
    const email = profile.email;
    if (!email) throw new SocialFailure('no-email', sm.noEmail(provider.label));
    const made = await createSocialAccount(deps, provider, { ...profile, email }, request.ip);
    user = made.user;
    created = made.created;
  }
  if (!user) throw new SocialFailure('account-gone', am.accountGone);
  if (isLocked(user, now)) {
    await writeAudit(db, {
      userId: user.id,
      action: 'sign-in.refused-locked',
      target: `user:${user.id}`,
      address: request.ip,
    });
    throw new SocialFailure('locked', m.loginFailed);
  }
  await writeAudit(db, {
    userId: user.id,
    action: 'social.sign-in',
    target: `user:${user.id}`,
    detail: { provider: provider.name, created },
    address: request.ip,
  });
  const methods = signInMethodsOf(user, await countRecoveryCodes(db, user.id));
  const preSignIn = await beginAttempt(deps, user, 'sign-in', methods, request.ip, { background: false });
  return {
    location: webPage(deps, '/account/login', {
      pu: encodePreSignIn(preSignIn),
      r: safeReturnPath(transaction.return_to),
    }),
  };
}

/** A username from the email's local part or the name: letters and digits only, made unique. */
export function usernameBase(profile: Pick<ProviderProfile, 'email' | 'name' | 'firstName' | 'lastName'>) {
  const candidates = [
    profile.email?.split('@')[0] ?? '',
    profile.name ?? '',
    `${profile.firstName ?? ''}${profile.lastName ?? ''}`,
  ];
  for (const candidate of candidates) {
    const cleaned = candidate.replace(/[^A-Za-z0-9]/g, '').slice(0, 40);
    if (cleaned) return cleaned;
  }
  return 'user';
}

/**
 * Creates the account of a first social sign-in: the built-in User role, no password (password sign-in stays
 * impossible until one is set through forgot password), the email verified only when the provider asserts it, and
 * the identity linked, all in one transaction. Two first sign-ins of one person at once make one account.
 */
async function createSocialAccount(
  deps: AccountDeps,
  provider: SocialProvider,
  profile: ProviderProfile & { email: string },
  address: string,
): Promise<{ user: UserRow | undefined; created: boolean }> {
  const db = deps.store.db;
  const base = usernameBase(profile);
  for (let attempt = 0; attempt < 8; attempt += 1) {
    const username = attempt === 0 ? base : `${base}${randomInt(1000, 100_000)}`;
    if (await findUserByUsername(db, username)) continue;
    const now = deps.now().toISOString();
    try {
      const id = await db.transaction().execute(async (trx) => {
        const userId = await insertUser(
          trx,
          {
            username,
            email: profile.email,
            passwordHash: null,
            isAdmin: false,
            emailVerified: profile.emailVerified,
          },
          now,
        );
        await updateUser(trx, userId, { first_name: profile.firstName, last_name: profile.lastName }, now);
        await addUserRole(trx, userId, USER_ROLE_ID);
        await insertIdentity(
          trx,
          { userId, provider: provider.name, subject: profile.subject, email: profile.email },
          now,
        );
        await writeAudit(trx, {
          userId,
          action: 'social.account-created',
          target: `user:${userId}`,
          detail: { provider: provider.name },
          address,
        });
        return userId;
      });
      return { user: await findUserById(db, id), created: true };
    } catch (error) {
      // The same person's other first sign-in won the race: use the account it made.
      const identity = await findIdentity(db, provider.name, profile.subject);
      if (identity) return { user: await findUserById(db, identity.user_id), created: false };
      if (!(await findUserByUsername(db, username))) throw error;
    }
  }
  throw new SocialFailure('no-username', sm.notConfirmed(provider.label));
}

/** Link mode: the identity joins the account that started the link, unless another account has it. */
async function linkIdentity(
  deps: AccountDeps,
  request: FastifyRequest,
  provider: SocialProvider,
  profile: ProviderProfile,
  transaction: OAuthTransactionRow,
): Promise<CallbackOutcome> {
  const db = deps.store.db;
  const now = deps.now().toISOString();
  const user = transaction.user_id === null ? undefined : await findUserById(db, transaction.user_id);
  if (!user) throw new SocialFailure('account-gone', am.accountGone);
  const identity = await findIdentity(db, provider.name, profile.subject);
  if (identity && identity.user_id !== user.id)
    throw new SocialFailure('linked-elsewhere', sm.linkedElsewhere(provider.label));
  if (identity) {
    await touchIdentity(db, identity.id, profile.email, now);
  } else {
    const mine = (await identitiesOfUser(db, user.id)).find((i) => i.provider === provider.name);
    if (mine) throw new SocialFailure('other-linked', sm.otherLinked(provider.label));
    try {
      await insertIdentity(
        db,
        { userId: user.id, provider: provider.name, subject: profile.subject, email: profile.email },
        now,
      );
    } catch (error) {
      // Linked elsewhere (or here) a moment ago.
      const raced = await findIdentity(db, provider.name, profile.subject);
      if (!raced) throw error;
      if (raced.user_id !== user.id)
        throw new SocialFailure('linked-elsewhere', sm.linkedElsewhere(provider.label));
    }
    await writeAudit(db, {
      userId: user.id,
      action: 'social.linked',
      target: `user:${user.id}`,
      detail: { provider: provider.name },
      address: request.ip,
    });
  }
  return { location: webPage(deps, '/account', { linked: provider.name }) };
}

/** GET /api/account/providers: the configured providers, and the signed-in account's linked ones. */
export async function socialProvidersOf(
  social: SocialSignIn,
  account: SignedInAccount | null,
): Promise<SocialProviders> {
  const db = social.deps.store.db;
  const user = account ? await findUserById(db, account.userId) : undefined;
  const identities = user ? await identitiesOfUser(db, user.id) : [];
  return {
    configured: social.configured,
    labels: Object.fromEntries(social.configured.map((name) => [name, social.require(name).provider.label])),
    linked: identities.flatMap((identity) => {
      const provider = socialProviderNames.find((name) => name === identity.provider);
      return provider
        ? [
            {
              provider,
              email: identity.email,
              linkedAt: identity.created_at,
              lastUsedAt: identity.last_used_at,
            },
          ]
        : [];
    }),
    hasPassword: user ? user.password_hash !== null : null,
  };
}

/**
 * DELETE /api/account/providers/{provider}: unlinks the provider (recent authentication required), unless it is
 * the account's last way in: an account without a password or a passkey keeps its last provider.
 */
export async function unlinkProvider(
  deps: AccountDeps,
  request: FastifyRequest,
  account: SignedInAccount,
  name: string,
): Promise<string> {
  const db = deps.store.db;
  const label = providerLabel(deps.config, name);
  const user = await findUserById(db, account.userId);
  if (!user) throw new ApiError(401, am.accountGone);
  const identities = await identitiesOfUser(db, user.id);
  if (!identities.some((identity) => identity.provider === name))
    throw new ApiError(404, sm.notLinked(label));
  // A passkey is a complete sign-in on its own (0005), so it counts as a way in too.
  const lastWayIn =
    user.password_hash === null && identities.length === 1 && (await countPasskeys(db, user.id)) === 0;
  if (lastWayIn) throw new ApiError(409, sm.lastWayIn(label));
  await deleteIdentity(db, user.id, name);
  await writeAudit(db, {
    userId: user.id,
    action: 'social.unlinked',
    target: `user:${user.id}`,
    detail: { provider: name },
    address: request.ip,
  });
  return label;
}
