import { afterEach, describe, expect, it } from 'vitest';
import { verifyPassword } from '#server/crypto/password-hash.ts';
import { secretBox } from '#server/crypto/secret-box.ts';
import { withXsrf } from '#server/test/factories.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';
import { prepareFirstAdministrator } from './service.ts';

const box = secretBox(Buffer.alloc(32, 7));

const form = {
  username: 'owner',
  email: 'owner@example.com',
  password: 'Owner#12345',
  passwordConfirm: 'Owner#12345',
};

describe('the first administrator', () => {
  let t: TestApp;
  afterEach(async () => t.close());

  it('is created from ADMIN_USERNAME, ADMIN_PASSWORD and ADMIN_EMAIL on an empty app store, once', async () => {
    t = await buildTestApp({
      env: { ADMIN_USERNAME: 'admin', ADMIN_PASSWORD: 'Admin#12345', ADMIN_EMAIL: 'admin@example.com' },
    });
    expect(await prepareFirstAdministrator(t.store, t.config.admin, t.app.log, box)).toEqual({
      setupToken: null,
    });
    expect(await prepareFirstAdministrator(t.store, t.config.admin, t.app.log, box)).toEqual({
      setupToken: null,
    });

    const users = await t.store.db.selectFrom('users').selectAll().execute();
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ username: 'admin', email: 'admin@example.com', is_admin: 1 });
    expect(users[0]!.password_hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(users[0]!.password_hash!, 'Admin#12345')).toBe(true);
    const roles = await t.store.db.selectFrom('user_roles').select('role_id').execute();
    expect(roles).toEqual([{ role_id: 1 }]);
    const audit = await t.store.db.selectFrom('audit_log').select('action').execute();
    expect(audit).toEqual([{ action: 'setup.admin-from-environment' }]);

    const status = await t.app.inject({ method: 'GET', url: '/api/setup' });
    expect(status.json()).toEqual({ isSuccess: true, data: { required: false }, message: null });
  });

  it('is created through the one-time setup link, which works once', async () => {
    t = await buildTestApp();
    expect((await t.app.inject({ method: 'GET', url: '/api/setup' })).json().data).toEqual({
      required: true,
    });

    const first = await prepareFirstAdministrator(t.store, null, t.app.log, box);
    expect(first.setupToken).toMatch(/^[\w-]{43}$/);
    // A restart, or another instance, prints the same link while it is valid (issue 18)…
    const restarted = await prepareFirstAdministrator(t.store, null, t.app.log, box);
    expect(restarted.setupToken).toBe(first.setupToken);
    // …and a new one once it has expired; the old one then stays refused.
    await t.store.db
      .updateTable('one_time_codes')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('purpose', '=', 'setup')
      .execute();
    const second = await prepareFirstAdministrator(t.store, null, t.app.log, box);
    expect(second.setupToken).not.toBe(first.setupToken);
    const oldToken = first.setupToken!;
    const token = second.setupToken!;
    // Like the web app: a GET first gives the XSRF cookie, every POST sends it back in X-XSRF-TOKEN.
    const headers = await withXsrf(t);

    const stale = await t.app.inject({
      method: 'POST',
      url: '/api/setup',
      headers,
      payload: { ...form, token: oldToken },
    });
    expect(stale.statusCode).toBe(400);
    expect(stale.json().message).toBe(
      'This setup link is not valid or has expired: restart DBUI to print a new one.',
    );

    const mismatch = await t.app.inject({
      method: 'POST',
      url: '/api/setup',
      headers,
      payload: { ...form, token, passwordConfirm: 'x' },
    });
    expect(mismatch.json()).toEqual({
      isSuccess: false,
      data: null,
      message: 'passwordConfirm: Passwords must match.',
    });

    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/setup',
      headers,
      payload: { ...form, token },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({
      isSuccess: true,
      data: null,
      message: 'The administrator was created. Sign in to continue.',
    });
    const admin = await t.store.db
      .selectFrom('users')
      .select(['username', 'is_admin'])
      .executeTakeFirstOrThrow();
    expect(admin).toEqual({ username: 'owner', is_admin: 1 });

    const again = await t.app.inject({
      method: 'POST',
      url: '/api/setup',
      headers,
      payload: { ...form, username: 'other', token },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('The first administrator already exists: sign in instead.');
    expect(await prepareFirstAdministrator(t.store, null, t.app.log, box)).toEqual({
      setupToken: null,
    });
  });
});
