import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

/* OIDC_* (docs/decisions/0060-generic-openid-connect.md): read together, refused in one line naming the variable. */

const complete = {
  OIDC_ISSUER: 'https://sso.example.com/realms/staff',
  OIDC_CLIENT_ID: 'dbui',
  OIDC_CLIENT_SECRET: 'the-client-secret',
};

function problem(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('OIDC_* configuration', () => {
  it('is off unless set, and reads the issuer, client and defaults when set', () => {
    expect(loadConfig({}).oidc).toBeNull();
    expect(loadConfig(complete).oidc).toEqual({
      issuer: 'https://sso.example.com/realms/staff',
      clientId: 'dbui',
      clientSecret: 'the-client-secret',
      label: 'Single sign-on',
      scope: 'openid email profile',
    });
  });

  it('keeps the issuer exactly as given (Authentik’s ends in a slash) and reads the label and the scopes', () => {
    const config = loadConfig({
      ...complete,
      OIDC_ISSUER: 'https://auth.example.com/application/o/dbui/',
      OIDC_LABEL: 'Acme account',
      OIDC_SCOPES: 'openid,email  profile groups openid',
    });
    expect(config.oidc).toMatchObject({
      issuer: 'https://auth.example.com/application/o/dbui/',
      label: 'Acme account',
      scope: 'openid email profile groups',
    });
  });

  it.each([
    [
      { OIDC_ISSUER: complete.OIDC_ISSUER },
      'OIDC_CLIENT_ID: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together, or none of them.',
    ],
    [
      { OIDC_ISSUER: complete.OIDC_ISSUER, OIDC_CLIENT_ID: 'dbui' },
      'OIDC_CLIENT_SECRET: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together, or none of them.',
    ],
    [
      { OIDC_CLIENT_ID: 'dbui', OIDC_CLIENT_SECRET: 'the-client-secret' },
      'OIDC_ISSUER: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together, or none of them.',
    ],
    [
      { OIDC_LABEL: 'Acme account' },
      'OIDC_LABEL: is set, but sign-in with an OpenID Connect provider needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET.',
    ],
    [
      { OIDC_SCOPES: 'openid email' },
      'OIDC_SCOPES: is set, but sign-in with an OpenID Connect provider needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET.',
    ],
    [
      { ...complete, OIDC_ISSUER: 'sso.example.com' },
      'OIDC_ISSUER: "sso.example.com" is not a URL (for example https://sso.example.com/realms/staff).',
    ],
    [
      { ...complete, OIDC_ISSUER: 'ldap://sso.example.com' },
      'OIDC_ISSUER: "ldap://sso.example.com" must be an https:// URL.',
    ],
    [
      { ...complete, OIDC_ISSUER: 'https://sso.example.com/realms/staff/.well-known/openid-configuration' },
      'OIDC_ISSUER: give the issuer itself, without /.well-known/openid-configuration (DBUI adds it).',
    ],
    [
      { ...complete, OIDC_ISSUER: 'https://sso.example.com/?tenant=1' },
      'OIDC_ISSUER: "https://sso.example.com/?tenant=1" must not carry a query, a fragment or credentials.',
    ],
    [
      { ...complete, OIDC_LABEL: 'x'.repeat(41) },
      'OIDC_LABEL: must be at most 40 characters of plain text (for example Acme account).',
    ],
    [
      { ...complete, OIDC_SCOPES: 'email profile' },
      'OIDC_SCOPES: must include openid (for example openid email profile).',
    ],
    [{ ...complete, OIDC_SCOPES: 'openid "email"' }, 'OIDC_SCOPES: ""email"" is not a scope name.'],
  ])('refuses %j in one line naming the variable', (env, expected) => {
    const message = problem(env);
    expect(message).toBe(expected);
    expect(message).not.toContain('the-client-secret');
  });

  it('never repeats credentials of an issuer address', () => {
    const message = problem({ ...complete, OIDC_ISSUER: 'https://admin:hunter2@sso.example.com/' });
    expect(message).toMatch(/^OIDC_ISSUER: .* must not carry a query, a fragment or credentials\.$/);
    expect(message).not.toContain('hunter2');
  });
});
