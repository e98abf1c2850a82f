import { createRequire } from 'node:module';
import path from 'node:path';
import type { CDPSession, Page } from '@playwright/test';
import type * as WebAuthnBrowser from '@simplewebauthn/browser';

const require = createRequire(import.meta.url);
/** The UMD build of @simplewebauthn/browser (the package exports only its entry, so found beside it). */
const WEBAUTHN_BUNDLE = path.join(
  path.dirname(require.resolve('@simplewebauthn/browser')),
  '..',
  'dist',
  'bundle',
  'index.umd.min.js',
);

type Browser = typeof WebAuthnBrowser;
/** The options JSON startRegistration takes. */
export type RegistrationOptionsJSON = Parameters<Browser['startRegistration']>[0]['optionsJSON'];
/** The options JSON startAuthentication takes. */
export type AuthenticationOptionsJSON = Parameters<Browser['startAuthentication']>[0]['optionsJSON'];

/** Adds Chromium's virtual WebAuthn authenticator (CDP) to the page: a platform authenticator with discoverable
 * credentials and user verification that answers by itself; the CDP session reads its credentials. */
export async function addVirtualAuthenticator(
  page: Page,
): Promise<{ client: CDPSession; authenticatorId: string }> {
  const client = await page.context().newCDPSession(page);
  await client.send('WebAuthn.enable');
  const { authenticatorId } = await client.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { client, authenticatorId };
}

/** Loads @simplewebauthn/browser into the page (window.SimpleWebAuthnBrowser) for API-level passkey ceremonies. */
export async function loadWebAuthnBrowser(page: Page, origin: string): Promise<void> {
  // The page runs under the server's Content-Security-Policy (scripts from its own origin only), so the bundle is
  // served as a script file of that origin rather than injected inline.
  await page.route(`${origin}/e2e/simplewebauthn-browser.js`, (route) =>
    route.fulfill({ path: WEBAUTHN_BUNDLE, contentType: 'text/javascript' }),
  );
  await page.addScriptTag({ url: '/e2e/simplewebauthn-browser.js' });
}

/** Runs navigator.credentials.create in the page through startRegistration (after loadWebAuthnBrowser). */
export function registerInPage(page: Page, optionsJSON: unknown) {
  return page.evaluate(async (options) => {
    const browser = (window as unknown as { SimpleWebAuthnBrowser: Browser }).SimpleWebAuthnBrowser;
    return browser.startRegistration({ optionsJSON: options as unknown as RegistrationOptionsJSON });
  }, optionsJSON);
}

/** Runs navigator.credentials.get in the page through startAuthentication (after loadWebAuthnBrowser). */
export function authenticateInPage(page: Page, optionsJSON: unknown) {
  return page.evaluate(async (options) => {
    const browser = (window as unknown as { SimpleWebAuthnBrowser: Browser }).SimpleWebAuthnBrowser;
    return browser.startAuthentication({ optionsJSON: options as unknown as AuthenticationOptionsJSON });
  }, optionsJSON);
}
