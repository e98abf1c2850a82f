import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { authorizationCodeGrant, buildAuthorizationUrl, type CustomFetch } from 'openid-client';
import {
  facebook,
  fetchOAuth2Profile,
  genericOidc,
  google,
  issuerBoundSubject,
  microsoft,
  providerFor,
  providerProblem,
  type OAuth2Provider,
} from './social-providers.ts';
import { makeClient, safeReturnPath, usernameBase } from './social-service.ts';

/*
 * The provider table without a network: Microsoft's multi-tenant issuer and Facebook's plain OAuth 2 are checked
 * against stand-in answers given to openid-client through its customFetch hook. Google runs for real against a
 * local OpenID provider in social.test.ts.
 */

const setting = { clientId: 'client-1', clientSecret: 'secret-1', issuer: null };
const REDIRECT = 'http://dbui.test/api/account/login/microsoft/callback';
const VERIFIER = 'v'.repeat(43);
const TENANT = '9188040d-6c67-4c5b-b112-36a304b66dad';
const OTHER_TENANT = '72f988bf-86f1-41af-91ab-2d7cd011db47';
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

function json(body: unknown): Response {
  return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
}

/** An ID token (signed, though openid-client trusts the token endpoint's TLS for code-flow ID tokens). */
function idToken(claims: Record<string, unknown>): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${part({ alg: 'RS256', typ: 'JWT', kid: 'k1' })}.${part(claims)}`;
  return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
}

/** Microsoft's discovery document for /common/v2.0 (its issuer is a template) and a token endpoint. */
function microsoftNetwork(tokenClaims: Record<string, unknown>, seen: string[]): CustomFetch {
  return async (url) => {
    seen.push(url);
    if (url === 'https://login.microsoftonline.com/common/v2.0/.well-known/openid-configuration') {
      return json({
        issuer: 'https://login.microsoftonline.com/{tenantid}/v2.0',
        authorization_endpoint: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
        token_endpoint: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
        jwks_uri: 'https://login.microsoftonline.com/common/discovery/v2.0/keys',
        userinfo_endpoint: 'https://graph.microsoft.com/oidc/userinfo',
        response_types_supported: ['code', 'id_token', 'code id_token'],
        id_token_signing_alg_values_supported: ['RS256'],
      });
    }
    if (url === 'https://login.microsoftonline.com/common/oauth2/v2.0/token') {
      return json({
        access_token: 'at',
        token_type: 'Bearer',
        expires_in: 3600,
        id_token: idToken(tokenClaims),
      });
    }
    return new Response('not found', { status: 404 });
  };
}

function microsoftClaims(overrides: Record<string, unknown> = {}) {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: `https://login.microsoftonline.com/${TENANT}/v2.0`,
    tid: TENANT,
    aud: setting.clientId,
    sub: 'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ',
    nonce: 'nonce-1',
    iat: now,
    exp: now + 3600,
    email: 'ann@contoso.com',
    email_verified: true,
    name: 'Ann Example',
    ...overrides,
  };
}

async function microsoftGrant(claims: Record<string, unknown>) {
  const seen: string[] = [];
  const client = await makeClient(microsoft, setting, microsoftNetwork(claims, seen));
  const tokens = await authorizationCodeGrant(client, new URL(`${REDIRECT}?code=c1&state=state-1`), {
    pkceCodeVerifier: VERIFIER,
    expectedState: 'state-1',
    expectedNonce: 'nonce-1',
  });
  return { tokens, seen, client };
}

describe('social sign-in providers', () => {
  it('Google: OpenID Connect at accounts.google.com; a verified email is taken as verified', () => {
    expect(google).toMatchObject({
      protocol: 'oidc',
      issuer: 'https://accounts.google.com',
      scope: 'openid email profile',
    });
    expect(
      google.profileOf({ sub: '1234', email: 'ann@gmail.com', email_verified: true, given_name: 'Ann' }),
    ).toEqual({
      subject: '1234',
      email: 'ann@gmail.com',
      emailVerified: true,
      firstName: 'Ann',
      lastName: null,
      name: null,
    });
    expect(google.profileOf({ sub: '1234', email: 'ann@gmail.com' })?.emailVerified).toBe(false);
    expect(google.profileOf({ email: 'ann@gmail.com', email_verified: true })).toBeNull();
  });

  it('Microsoft: the multi-tenant issuer; the subject is sub and the email is never taken as verified', () => {
    expect(microsoft).toMatchObject({
      protocol: 'oidc',
      issuer: 'https://login.microsoftonline.com/common/v2.0',
      scope: 'openid email profile',
    });
    expect(microsoft.profileOf(microsoftClaims())).toMatchObject({
      subject: microsoftClaims().sub,
      email: 'ann@contoso.com',
      emailVerified: false,
    });
    // Without the optional email claim, the sign-in name when it is an address.
    expect(
      microsoft.profileOf(microsoftClaims({ email: undefined, preferred_username: 'bo@fabrikam.com' }))
        ?.email,
    ).toBe('bo@fabrikam.com');
    expect(
      microsoft.profileOf(microsoftClaims({ email: undefined, preferred_username: 'bo' }))?.email,
    ).toBeNull();
    // One tenant only: OAUTH_MICROSOFT_ISSUER with the tenant id.
    expect(
      providerFor('microsoft', { ...setting, issuer: `https://login.microsoftonline.com/${TENANT}/v2.0` }),
    ).toMatchObject({ issuer: `https://login.microsoftonline.com/${TENANT}/v2.0` });
  });

  it("Microsoft: accepts an ID token whose issuer is its own tenant's, refuses one naming another tenant", async () => {
    const { tokens, seen, client } = await microsoftGrant(microsoftClaims());
    expect(tokens.claims()?.sub).toBe(microsoftClaims().sub);
    expect(seen).toEqual([
      'https://login.microsoftonline.com/common/v2.0/.well-known/openid-configuration',
      'https://login.microsoftonline.com/common/oauth2/v2.0/token',
    ]);
    const authorization = buildAuthorizationUrl(client, { redirect_uri: REDIRECT, scope: microsoft.scope });
    expect(authorization.origin + authorization.pathname).toBe(
      'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
    );

    /** Why openid-client refuses the grant (the cause names the claim). */
    const refusal = (claims: Record<string, unknown>) =>
      microsoftGrant(claims).then(
        () => 'accepted',
        (error: Error) => (error.cause instanceof Error ? error.cause.message : error.message),
      );
    const otherIssuer = `https://login.microsoftonline.com/${OTHER_TENANT}/v2.0`;
    expect(await refusal(microsoftClaims({ iss: otherIssuer }))).toMatch(/"iss" \(issuer\)/);
    expect(await refusal(microsoftClaims({ iss: otherIssuer, tid: OTHER_TENANT }))).toBe('accepted');
    expect(await refusal(microsoftClaims({ aud: 'someone-else' }))).toMatch(/"aud" \(audience\)/);
    expect(await refusal(microsoftClaims({ nonce: 'other' }))).toMatch(/"nonce"/);
    expect(await refusal(microsoftClaims({ exp: Math.floor(Date.now() / 1000) - 600 }))).toMatch(/exp/);
  });

  it('Facebook: OAuth 2 dialog and token endpoints with PKCE; the subject is the Graph id', async () => {
    expect(facebook).toMatchObject({
      protocol: 'oauth2',
      authorizationEndpoint: 'https://www.facebook.com/v19.0/dialog/oauth',
      tokenEndpoint: 'https://graph.facebook.com/v19.0/oauth/access_token',
      profileUrl: 'https://graph.facebook.com/me?fields=id,email,name',
    });
    expect(facebook.scope.split(',')).toEqual(['email', 'public_profile']);

    const requests: { url: string; body: string }[] = [];
    const network: CustomFetch = async (url, options) => {
      requests.push({ url, body: String(options.body) });
      return json({ access_token: 'fb-token', token_type: 'bearer', expires_in: 5183944 });
    };
    const client = await makeClient(facebook, setting, network);
    const authorization = buildAuthorizationUrl(client, {
      redirect_uri: 'http://dbui.test/api/account/login/facebook/callback',
      scope: facebook.scope,
      state: 'state-1',
      code_challenge: 'c'.repeat(43),
      code_challenge_method: 'S256',
    });
    expect(authorization.origin + authorization.pathname).toBe(facebook.authorizationEndpoint);
    expect(authorization.searchParams.get('client_id')).toBe('client-1');
    expect(authorization.searchParams.get('response_type')).toBe('code');

    const tokens = await authorizationCodeGrant(
      client,
      new URL('http://dbui.test/api/account/login/facebook/callback?code=c1&state=state-1'),
      { pkceCodeVerifier: VERIFIER, expectedState: 'state-1' },
    );
    expect(tokens.access_token).toBe('fb-token');
    expect(requests[0]?.url).toBe(facebook.tokenEndpoint);
    const sent = new URLSearchParams(requests[0]?.body);
    expect(Object.fromEntries(sent)).toMatchObject({
      grant_type: 'authorization_code',
      code: 'c1',
      code_verifier: VERIFIER,
      client_id: 'client-1',
      client_secret: 'secret-1',
      redirect_uri: 'http://dbui.test/api/account/login/facebook/callback',
    });

    let asked: URL | null = null;
    let authorizationHeader: string | null = null;
    const graph = (async (input: URL, init?: RequestInit) => {
      asked = input;
      authorizationHeader = new Headers(init?.headers).get('authorization');
      return json({ id: '10229', email: 'ann@example.com', name: 'Ann Marie Example' });
    }) as typeof fetch;
    const profile = await fetchOAuth2Profile(facebook, 'fb-token', 'secret-1', graph);
    expect(profile).toEqual({
      subject: '10229',
      email: 'ann@example.com',
      emailVerified: false,
      firstName: 'Ann',
      lastName: 'Marie Example',
      name: 'Ann Marie Example',
    });
    expect(authorizationHeader).toBe('Bearer fb-token');
    const profileUrl = asked as URL | null;
    expect(profileUrl?.origin + (profileUrl?.pathname ?? '')).toBe('https://graph.facebook.com/me');
    expect(profileUrl?.searchParams.get('fields')).toBe('id,email,name');
    expect(profileUrl?.searchParams.get('appsecret_proof')).toBe(
      createHmac('sha256', 'secret-1').update('fb-token').digest('hex'),
    );
    expect(facebook.profileOf({ email: 'x@example.com' })).toBeNull();
  });

  it('allows plain http only on this machine, and keeps return paths on this site', () => {
    const local = providerFor('google', { ...setting, issuer: 'http://127.0.0.1:4000' });
    expect(providerProblem(local)).toBeNull();
    expect(providerProblem(google)).toBeNull();
    expect(providerProblem(providerFor('google', { ...setting, issuer: 'http://idp.example.com' }))).toMatch(
      /must be https/,
    );
    const stand = providerFor('facebook', { ...setting, issuer: 'http://localhost:4001' }) as OAuth2Provider;
    expect(stand.tokenEndpoint).toBe('http://localhost:4001/oauth/access_token');
    expect(providerProblem(stand)).toBeNull();

    expect(safeReturnPath('/browse/demo?x=1')).toBe('/browse/demo?x=1');
    for (const bad of ['https://evil.example', '//evil.example', '/\\evil.example', 'browse', '/a\nb', 7]) {
      expect(safeReturnPath(bad), String(bad)).toBeNull();
    }
    expect(
      usernameBase({ email: 'ann.marie+dbui@example.com', name: null, firstName: null, lastName: null }),
    ).toBe('annmariedbui');
    expect(usernameBase({ email: '__@example.com', name: 'Zoë Ng', firstName: null, lastName: null })).toBe(
      'ZoNg',
    );
    expect(usernameBase({ email: null, name: null, firstName: null, lastName: null })).toBe('user');
  });

  it('ties the generic provider’s subject to the issuer of the ID token, and takes its email_verified as said', () => {
    const generic = genericOidc({
      issuer: 'https://sso.example.com/realms/staff',
      clientId: 'dbui',
      clientSecret: 'secret-1',
      label: 'Acme account',
      scope: 'openid email',
    });
    expect(generic).toMatchObject({ name: 'oidc', label: 'Acme account', scope: 'openid email' });
    const claims = { sub: '1', email: 'ann@example.com', email_verified: true, given_name: 'Ann' };
    const here = generic.profileOf({ ...claims, iss: 'https://sso.example.com/realms/staff' });
    expect(here).toMatchObject({ email: 'ann@example.com', emailVerified: true, firstName: 'Ann' });
    expect(here?.subject).toBe(issuerBoundSubject('https://sso.example.com/realms/staff', '1'));
    // Person 1 of another directory is another person; without iss (UserInfo), the configured issuer.
    expect(generic.profileOf({ ...claims, iss: 'https://other.example.com' })?.subject).not.toBe(
      here?.subject,
    );
    expect(generic.profileOf(claims)?.subject).toBe(here?.subject);
    expect(generic.profileOf({ ...claims, email_verified: 'true' })?.emailVerified).toBe(false);
    expect(generic.profileOf({ email: 'ann@example.com' })).toBeNull();
    // Always within the column's 255 characters.
    const long = issuerBoundSubject('https://sso.example.com', 's'.repeat(255));
    expect(long.length).toBeLessThanOrEqual(255);
    expect(long).not.toBe(issuerBoundSubject('https://sso.example.com', `${'s'.repeat(254)}t`));
    expect(issuerBoundSubject('https://sso.example.com', 'abc')).toMatch(/^[0-9a-f]{16}:abc$/);
  });
});
