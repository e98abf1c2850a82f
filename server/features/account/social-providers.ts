import { createHash, createHmac } from 'node:crypto';
import type { SocialProviderName } from '#common/contract/social.ts';
import type { OAuthProviderName, OAuthProviderSetting, OidcSetting } from '#server/config.ts';

/*
 * The social sign-in providers (docs/decisions/0005-accounts.md, "Social sign-in"): where each one lives, what to
 * ask for, and how the person's subject id, email and name are read from its answer. Google and Microsoft speak
 * OpenID Connect (discovery from the issuer, an ID token with `sub` and a nonce); Facebook speaks plain OAuth 2 and
 * the subject is the app-scoped `id` of the Graph API's /me. Beside them, `oidc` is any OpenID Connect provider the
 * operator names with OIDC_ISSUER (docs/decisions/0060-generic-openid-connect.md).
 */

/** What DBUI takes from a provider about the person. */
export interface ProviderProfile {
  /** The provider's stable id of the person: the only thing an account is found by. */
  subject: string;
  /** As the provider gave it, or null (then no account can be created: codes need an address). */
  email: string | null;
  /** Only when the provider asserts it; Microsoft and Facebook do not, so their addresses are confirmed by a code. */
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
  /** The full name, for a username when there is no email. */
  name: string | null;
}

interface ProviderBase {
  name: SocialProviderName;
  /** For people: 'Google', 'Microsoft', 'Facebook', or the generic provider's OIDC_LABEL. */
  label: string;
  scope: string;
  /** Reads the profile from the ID token claims (OpenID Connect) or the profile endpoint's JSON (OAuth 2); null
   * when the subject is missing. */
  profileOf(answer: unknown): ProviderProfile | null;
}

/** An OpenID Connect provider: everything else comes from `${issuer}/.well-known/openid-configuration`. */
export interface OidcProvider extends ProviderBase {
  protocol: 'oidc';
  issuer: string;
}

/** A plain OAuth 2 provider with fixed endpoints and a profile endpoint read with the access token. */
export interface OAuth2Provider extends ProviderBase {
  protocol: 'oauth2';
  /** Only a name for the configuration: plain OAuth 2 has no issuer to check. */
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  profileUrl: string;
}

export type SocialProvider = OidcProvider | OAuth2Provider;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const EMAIL_MAX_LENGTH = 250;
const NAME_MAX_LENGTH = 50;

function text(value: unknown, max = 500): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed && trimmed.length <= max ? trimmed : null;
}

function emailOf(value: unknown): string | null {
  const email = text(value, EMAIL_MAX_LENGTH);
  return email && EMAIL.test(email) ? email : null;
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** The standard OpenID Connect claims; `email_verified` counts only when `trustsEmailVerified`. */
function oidcProfile(answer: unknown, trustsEmailVerified: boolean): ProviderProfile | null {
  const claims = record(answer);
  const subject = text(claims?.sub, 255);
  if (!claims || !subject) return null;
  const email = emailOf(claims.email);
  return {
    subject,
    email,
    emailVerified: trustsEmailVerified && email !== null && claims.email_verified === true,
    firstName: text(claims.given_name, NAME_MAX_LENGTH),
    lastName: text(claims.family_name, NAME_MAX_LENGTH),
    name: text(claims.name),
  };
}

/** Google: `email_verified` is asserted for the address in `email`. */
export const google: OidcProvider = {
  protocol: 'oidc',
  name: 'google',
  label: 'Google',
  issuer: 'https://accounts.google.com',
  scope: 'openid email profile',
  profileOf: (claims) => oidcProfile(claims, true),
};

/**
 * Microsoft (Entra ID, work, school and personal accounts). The `common` issuer is multi-tenant: its discovery
 * document names `https://login.microsoftonline.com/{tenantid}/v2.0`, and openid-client (6.x) then checks each ID
 * token's `iss` against that pattern filled with the token's own `tid`; audience, nonce and expiry are checked as
 * for any provider. OAUTH_MICROSOFT_ISSUER=https://login.microsoftonline.com/<tenant-id>/v2.0 limits sign-in to one
 * organisation. A tenant's administrator can set any address on an account, so the email is never taken as
 * verified (the sign-in code confirms it) and never used to find an account.
 */
export const microsoft: OidcProvider = {
  protocol: 'oidc',
  name: 'microsoft',
  label: 'Microsoft',
  issuer: 'https://login.microsoftonline.com/common/v2.0',
  scope: 'openid email profile',
  profileOf(answer) {
    const profile = oidcProfile(answer, false);
    const claims = record(answer);
    // Without the optional `email` claim, the sign-in name is usually the address.
    if (profile && !profile.email) profile.email = emailOf(claims?.preferred_username);
    return profile;
  },
};

const FACEBOOK_VERSION = 'v19.0';

/** Facebook Login (OAuth 2, with PKCE): the subject is the app-scoped user id; emails count as unverified. */
export const facebook: OAuth2Provider = {
  protocol: 'oauth2',
  name: 'facebook',
  label: 'Facebook',
  issuer: 'https://www.facebook.com',
  authorizationEndpoint: `https://www.facebook.com/${FACEBOOK_VERSION}/dialog/oauth`,
  tokenEndpoint: `https://graph.facebook.com/${FACEBOOK_VERSION}/oauth/access_token`,
  profileUrl: 'https://graph.facebook.com/me?fields=id,email,name',
  scope: 'email,public_profile',
  profileOf(answer) {
    const json = record(answer);
    const id = json?.id;
    const subject = typeof id === 'string' || typeof id === 'number' ? text(String(id), 255) : null;
    if (!json || !subject) return null;
    const name = text(json.name);
    const [first, ...rest] = name ? name.split(/\s+/) : [];
    return {
      subject,
      email: emailOf(json.email),
      emailVerified: false,
      firstName: text(first, NAME_MAX_LENGTH),
      lastName: text(rest.join(' '), NAME_MAX_LENGTH),
      name,
    };
  },
};

export const socialProviderTable: Record<OAuthProviderName, SocialProvider> = { google, microsoft, facebook };

/** The longest subject user_identities keeps. */
const SUBJECT_MAX_LENGTH = 255;

/**
 * The generic provider's key of a person: the ID token's `sub` tied to its `iss`. A `sub` is unique only within one
 * issuer (OpenID Connect Core §2), and many directories number their people 1, 2, 3, so if the operator points
 * OIDC_ISSUER at another directory, its person 1 must not reach the account of the old directory's person 1. The
 * issuer enters as 16 hex digits of its SHA-256; a `sub` too long to fit beside them enters as its own SHA-256.
 */
export function issuerBoundSubject(issuer: string, subject: string): string {
  const tag = createHash('sha256').update(issuer).digest('hex').slice(0, 16);
  const key = `${tag}:${subject}`;
  return key.length <= SUBJECT_MAX_LENGTH
    ? key
    : `${tag}#${createHash('sha256').update(subject).digest('hex')}`;
}

/**
 * Any OpenID Connect provider (Keycloak, Authentik, Okta, Entra ID, Google Workspace): everything from the
 * issuer's discovery document, the standard claims, and the subject tied to the issuer. `email_verified` is taken
 * as the provider says: the operator chose this directory, and a directory asserts it only for addresses it has
 * checked (Entra ID does not send it, so its addresses are confirmed by the sign-in code, as Microsoft's are). It
 * never finds an account by email either way.
 */
export function genericOidc(setting: OidcSetting): OidcProvider {
  return {
    protocol: 'oidc',
    name: 'oidc',
    label: setting.label,
    issuer: setting.issuer,
    scope: setting.scope,
    profileOf(answer) {
      const profile = oidcProfile(answer, true);
      if (!profile) return null;
      // The ID token's iss, which openid-client has checked against the issuer (UserInfo has none).
      const issuer = text(record(answer)?.iss, 2000) ?? setting.issuer;
      return { ...profile, subject: issuerBoundSubject(issuer, profile.subject) };
    },
  };
}

/**
 * The provider as configured: `_ISSUER` replaces an OpenID Connect issuer (a single Microsoft tenant, or a local
 * provider in tests); for Facebook it replaces the base of its three endpoints (a stand-in server).
 */
export function providerFor(name: OAuthProviderName, setting: OAuthProviderSetting): SocialProvider {
  const provider = socialProviderTable[name];
  const issuer = setting.issuer;
  if (!issuer) return provider;
  if (provider.protocol === 'oidc') return { ...provider, issuer };
  return {
    ...provider,
    issuer,
    authorizationEndpoint: `${issuer}/dialog/oauth`,
    tokenEndpoint: `${issuer}/oauth/access_token`,
    profileUrl: `${issuer}/me?fields=id,email,name`,
  };
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Plain http is allowed only for a provider on this machine (tests, development); anything else needs https. */
export function allowsInsecureRequests(url: string): boolean {
  const parsed = new URL(url);
  return parsed.protocol === 'http:' && LOOPBACK.has(parsed.hostname);
}

/** Why a provider's endpoints cannot be used, or null when they can. */
export function providerProblem(provider: SocialProvider): string | null {
  const urls =
    provider.protocol === 'oidc'
      ? [provider.issuer]
      : [provider.authorizationEndpoint, provider.tokenEndpoint, provider.profileUrl];
  const insecure = urls.find((url) => !url.startsWith('https://') && !allowsInsecureRequests(url));
  return insecure
    ? `${insecure} must be https:// (plain http is allowed only on 127.0.0.1 or localhost)`
    : null;
}

/** Facebook's appsecret_proof: the access token signed with the app secret, so a stolen token alone is useless. */
export function appSecretProof(accessToken: string, appSecret: string): string {
  return createHmac('sha256', appSecret).update(accessToken).digest('hex');
}

/** Reads the person from a plain OAuth 2 provider's profile endpoint with the access token. */
export async function fetchOAuth2Profile(
  provider: OAuth2Provider,
  accessToken: string,
  clientSecret: string,
  fetchImpl: typeof fetch = fetch,
): Promise<ProviderProfile | null> {
  const url = new URL(provider.profileUrl);
  url.searchParams.set('appsecret_proof', appSecretProof(accessToken, clientSecret));
  const response = await fetchImpl(url, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`${provider.label} answered ${response.status} for the profile`);
  return provider.profileOf(await response.json());
}
