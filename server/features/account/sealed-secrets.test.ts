import fs from 'node:fs';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TotpSetup } from '#common/contract/account.ts';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { loadSecretKey, secretBox } from '#server/crypto/secret-box.ts';
import { DatabaseRegistry } from '#server/engines/database-registry.ts';
import { migrateAppStore, openAppStore, type AppStore } from '#server/store/app-store.ts';
import { AccountClient, signedInClient } from '#server/test/account-client.ts';
import { buildUser } from '#server/test/factories.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import { testClock, type TestApp } from '#server/test/test-app.ts';

/*
 * Authenticator keys are stored sealed (AES-256-GCM) under a key outside the app store: SECRET_KEY or the data
 * folder's secret.key. A copy of the app store alone gives nobody's second factor away.
 */

describe('the secret box', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  it('opens what it sealed, refuses what was changed or sealed under another key, and reads unsealed text as is', () => {
    const box = secretBox(loadSecretKey({ secretKey: 'x'.repeat(40), dataDir: dir.path }));
    const sealed = box.seal('JBSWY3DPEHPK3PXP');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.seal('JBSWY3DPEHPK3PXP')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('JBSWY3DPEHPK3PXP');
    const flipped = `${sealed.slice(0, -2)}${sealed.at(-2) === 'A' ? 'B' : 'A'}${sealed.at(-1)}`;
    expect(() => box.open(flipped)).toThrow();
    const other = secretBox(loadSecretKey({ secretKey: 'y'.repeat(40), dataDir: dir.path }));
    expect(() => other.open(sealed)).toThrow();
    expect(other.fingerprint).not.toBe(box.fingerprint);
    expect(box.open('JBSWY3DPEHPK3PXP')).toBe('JBSWY3DPEHPK3PXP');
  });

  it('without SECRET_KEY keeps a key file of its own in the data folder, readable by its owner only', () => {
    const first = loadSecretKey({ secretKey: null, dataDir: dir.path });
    const file = path.join(dir.path, 'secret.key');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(loadSecretKey({ secretKey: null, dataDir: dir.path }).equals(first)).toBe(true);
    fs.writeFileSync(file, 'short');
    expect(() => loadSecretKey({ secretKey: null, dataDir: dir.path })).toThrow(/32-byte key/);
  });
});

describe('authenticator keys in the app store', () => {
  const dir = tempDir();
  let store: AppStore;
  const apps: TestApp[] = [];

  /** An app on the shared store and data folder, as a restart makes one. */
  async function startApp(env: Record<string, string> = {}): Promise<TestApp> {
    const config = loadConfig({ DATA_DIR: dir.path, LOG_LEVEL: 'silent', CAPTCHA_COST: '10', ...env });
    const clock = testClock();
    const app = await buildApp({ config, store, databases: new DatabaseRegistry([]), clock: clock.now });
    await app.ready();
    const t = { app, store, config, clock, close: () => app.close() };
    apps.push(t);
    return t;
  }

  beforeAll(async () => {
    store = openAppStore({ kind: 'sqlite', file: path.join(dir.path, 'app.db') });
    await migrateAppStore(store);
  });
  afterAll(async () => {
    for (const t of apps) await t.close();
    await store?.close();
    dir.remove();
  });

  const secretsOf = (userId: number) =>
    store.db
      .selectFrom('users')
      .select(['totp_secret', 'totp_pending_secret'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();

  it('are sealed when set up, and still sign in with the app', async () => {
    const t = await startApp();
    const { user, browser } = await signedInClient(t);
    const setup = await browser.get<TotpSetup>('/api/account/totp');
    expect((await secretsOf(user.userId)).totp_pending_secret).toMatch(/^v1\./);
    const totp = new TOTP({ secret: Secret.fromBase32(setup.data.key) });
    expect((await browser.get(`/api/account/totp/verify/${totp.generate()}`)).status).toBe(200);
    const stored = await secretsOf(user.userId);
    expect(stored.totp_secret).toMatch(/^v1\./);
    expect(stored.totp_secret).not.toContain(setup.data.key);
    // The app's code proves the person again (re-authentication opens the sealed key).
    t.clock.advance(31_000);
    const reauth = await browser.post('/api/account/reauth', {
      otp: totp.generate({ timestamp: t.clock.now().getTime() }),
    });
    expect(reauth.status, reauth.message ?? '').toBe(200);
  });

  it('stored before sealing are sealed at the next start, and keep working', async () => {
    const t = await startApp();
    const user = await buildUser(t);
    const key = new Secret().base32;
    await store.db
      .updateTable('users')
      .set({
        totp_secret: key,
        totp_verified_at: new Date().toISOString(),
        totp_pending_secret: 'PENDINGKEY',
      })
      .where('id', '=', user.userId)
      .execute();
    const restarted = await startApp();
    const stored = await secretsOf(user.userId);
    expect(stored.totp_secret).toMatch(/^v1\./);
    expect(stored.totp_pending_secret).toMatch(/^v1\./);
    const browser = new AccountClient(restarted);
    browser.token = user.token;
    const code = new TOTP({ secret: Secret.fromBase32(key) }).generate();
    expect((await browser.post('/api/account/reauth', { otp: code })).status).toBe(200);
  });

  it('stop the start, naming SECRET_KEY, when the key is not the one they were sealed with', async () => {
    await expect(startApp({ SECRET_KEY: 'a different key of at least 32 characters' })).rejects.toThrow(
      /SECRET_KEY.*not the key/,
    );
    fs.renameSync(path.join(dir.path, 'secret.key'), path.join(dir.path, 'secret.key.moved'));
    await expect(startApp()).rejects.toThrow(/secret\.key is not the key.*restore that file/);
    fs.renameSync(path.join(dir.path, 'secret.key.moved'), path.join(dir.path, 'secret.key'));
    await startApp();
  });
});
