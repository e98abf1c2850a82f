import { expect, test } from '@playwright/test';
import type { Verification } from '#common/contract/account.ts';
import type { PasskeyLoginOptions, PasskeySummary } from '#common/contract/passkeys.ts';
import { passkeyMessages } from '#common/messages.ts';
import { api, pageApi } from './support/api.ts';
import { startAppServer, type AppServer } from './support/app-server.ts';
import { passwordStep, signInThroughApi } from './support/sign-in.ts';
import {
  addVirtualAuthenticator,
  authenticateInPage,
  loadWebAuthnBrowser,
  registerInPage,
} from './support/virtual-authenticator.ts';

/*
 * Passkeys in a real browser (docs/decisions/0009-passkeys.md): Chromium's virtual WebAuthn authenticator (CDP),
 * driven through @simplewebauthn/browser in the page, against the built server. Register a passkey after a
 * password-and-code sign-in, then sign in with the passkey alone, then use it as the second step after the password.
 *
 * WebAuthn refuses IP addresses as RP ID ("This is an invalid domain"): the journey's server (startAppServer) is
 * reached at http://localhost:PORT (localhost is a secure context and a valid RP ID).
 */

let server: AppServer;

test.describe.configure({ timeout: 270_000 });

test.beforeAll(async () => {
  server = await startAppServer('passkeys');
});

test.afterAll(async () => {
  await server?.stop();
});

test('a passkey in Chromium: registered, then signing in alone and as the second step', async ({ page }) => {
  const origin = server.origin;
  await page.goto(`${origin}/`);
  expect(await page.evaluate(() => window.isSecureContext)).toBe(true);
  await loadWebAuthnBrowser(page, origin);
  const { client, authenticatorId } = await addVirtualAuthenticator(page);

  // Password and emailed code, as the web app signs in; the sign-in is a recent proof, and reauth renews it.
  await api(page, 'GET', '/api/health'); // a first GET gets the XSRF cookie
  let { token } = await signInThroughApi(pageApi(page), server, server.admin);
  expect(
    (await api(page, 'POST', '/api/account/reauth', { token, body: { password: server.admin.password } }))
      .status,
  ).toBe(200);

  // Register: options from the server, navigator.credentials.create in the page, verified and stored.
  const options = await api<Record<string, unknown>>(page, 'POST', '/api/account/passkeys/register/options', {
    token,
  });
  expect(options.status, options.message ?? '').toBe(200);
  expect(options.data.rp).toEqual({ name: 'DBUI', id: 'localhost' });
  const registration = await registerInPage(page, options.data);
  const added = await api<PasskeySummary>(page, 'POST', '/api/account/passkeys/register/verify', {
    token,
    body: { response: registration, name: 'Chromium virtual authenticator' },
  });
  expect(added.status, added.message ?? '').toBe(200);
  expect(added.data.name).toBe('Chromium virtual authenticator');
  const stored = await client.send('WebAuthn.getCredentials', { authenticatorId });
  expect(stored.credentials).toHaveLength(1);
  expect(stored.credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });

  // Signed out, the old token no longer works.
  expect((await api(page, 'GET', '/api/account/logout', { token })).status).toBe(200);
  expect((await api(page, 'GET', '/api/account/verify', { token })).status).toBe(401);

  // A passkey alone: discoverable credential, no username, no password, no code.
  const ceremony = await api<PasskeyLoginOptions>(page, 'POST', '/api/account/login/passkey/options');
  expect(ceremony.status, ceremony.message ?? '').toBe(200);
  expect(ceremony.data.options.allowCredentials).toEqual([]);
  const assertion = await authenticateInPage(page, ceremony.data.options);
  const passkeyOnly = await api<Verification>(page, 'POST', '/api/account/login/passkey/verify', {
    body: { ceremonyId: ceremony.data.ceremonyId, response: assertion },
  });
  expect(passkeyOnly.status, passkeyOnly.message ?? '').toBe(200);
  token = passkeyOnly.data.token;
  const verified = await api<Verification>(page, 'GET', '/api/account/verify', { token });
  expect(verified.status).toBe(200);
  expect(verified.data.user).toMatchObject({ username: server.admin.username, isAdmin: true, passkeys: 1 });
  expect(verified.data.links).toEqual(['*']);
  // The same assertion again is refused: its challenge was used. (With the token: the XSRF cookie is now this
  // session's.)
  const replay = await api(page, 'POST', '/api/account/login/passkey/verify', {
    token,
    body: { ceremonyId: ceremony.data.ceremonyId, response: assertion },
  });
  expect(replay.status).toBe(400);
  expect(replay.message).toBe(passkeyMessages.challengeInvalid);
  expect((await api(page, 'GET', '/api/account/logout', { token })).status).toBe(200);

  // The password, then the passkey as the second step.
  const second = await passwordStep(pageApi(page), server, server.admin);
  expect(second.allowed2fa).toEqual(expect.arrayContaining(['Email', 'Passkey']));
  await server.mail.nextCode(server.admin.email); // the preferred method (Email) got its code anyway; the passkey is chosen instead
  const forKey = await api<PasskeyLoginOptions>(page, 'POST', '/api/account/login/passkey/options', {
    body: { key: second.key },
  });
  expect(forKey.status, forKey.message ?? '').toBe(200);
  expect(forKey.data.ceremonyId).toBeNull();
  expect(forKey.data.options.allowCredentials).toEqual([
    expect.objectContaining({ id: registration.id, type: 'public-key' }),
  ]);
  const secondStep = await api<Verification>(page, 'POST', '/api/account/login/passkey/verify', {
    body: { key: second.key, response: await authenticateInPage(page, forKey.data.options) },
  });
  expect(secondStep.status, secondStep.message ?? '').toBe(200);
  token = secondStep.data.token;
  expect((await api(page, 'GET', '/api/account/verify', { token })).status).toBe(200);

  // The authenticator counted its two assertions, and the server recorded the use.
  const after = await client.send('WebAuthn.getCredentials', { authenticatorId });
  expect(after.credentials[0]?.signCount).toBeGreaterThanOrEqual(2);
  const listed = await api<PasskeySummary[]>(page, 'GET', '/api/account/passkeys', { token });
  expect(listed.data).toHaveLength(1);
  expect(listed.data[0]?.lastUsedAt).not.toBeNull();
});
