import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleMessages, userMessages, type AdminUser, type AdminUserDetail } from '#common/contract/admin.ts';
import { randomToken, sha256Hex } from '#server/crypto/tokens.ts';
import { buildAdmin, buildUser, withXsrf, type TestUser } from '#server/test/factories.ts';
import { createPostgresDatabase, type TestDatabase } from '#server/test/server-databases.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';
import { insertSession } from '#server/store/sessions.ts';
import { LOCKED_UNTIL_UNLOCKED } from './user-actions-service.ts';

/*
 * The administrator's actions on one account (issue 14), against the real app on a SQLite and a PostgreSQL app
 * store: the user's page, roles, lock and unlock, second-factor reset, ending sessions; their refusals, their audit
 * entries, and that they count from the user's very next call.
 */

describe.each(['sqlite', 'postgres'] as const)('the user actions on a %s app store', (storeKind) => {
  let t: TestApp;
  let store: TestDatabase | undefined;
  let admin: TestUser;

  beforeAll(async () => {
    store = storeKind === 'postgres' ? await createPostgresDatabase('dbui_store') : undefined;
    t = await buildTestApp(store ? { env: { APP_DB_URL: store.url } } : {});
    admin = await buildAdmin(t, { username: 'boss' });
  });
  afterAll(async () => {
    await t?.close();
    await store?.drop();
  });

  const call = (method: 'GET' | 'POST', url: string, user: TestUser | null, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: user?.headers ?? {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const detailOf = async (user: TestUser): Promise<AdminUserDetail> =>
    (await call('GET', `/api/admin/users/${user.userId}`, admin)).json().data;
  const auditOf = (action: string, userId: number) =>
    t.store.db
      .selectFrom('audit_log')
      .select(['user_id', 'detail', 'target'])
      .where('action', '=', action)
      .where('target', '=', `user:${userId}`)
      .orderBy('id')
      .execute();
  /** A second live session of a user, as a sign-in on another device makes one. */
  const anotherSession = async (user: TestUser) => {
    const token = randomToken();
    const now = t.clock.now();
    const later = new Date(now.getTime() + 3_600_000).toISOString();
    await insertSession(
      t.store.db,
      {
        userId: user.userId,
        tokenHash: sha256Hex(token),
        expiresAt: later,
        absoluteExpiresAt: later,
        resetPassword: false,
        method: 'Email',
        address: null,
      },
      now.toISOString(),
    );
    return { authorization: `Bearer ${token}` };
  };

  it('is for administrators only', async () => {
    const clerk = await buildUser(t, { links: ['/db/*'] });
    for (const [method, url] of [
      ['GET', `/api/admin/users/${admin.userId}`],
      ['POST', `/api/admin/users/${admin.userId}/roles`],
      ['POST', `/api/admin/users/${admin.userId}/lock`],
      ['POST', `/api/admin/users/${admin.userId}/unlock`],
      ['POST', `/api/admin/users/${admin.userId}/reset-2fa`],
      ['POST', `/api/admin/users/${admin.userId}/end-sessions`],
      ['GET', '/api/admin/overview'],
    ] as const) {
      const payload = method === 'POST' ? {} : undefined;
      // Anonymous, with the XSRF pair (without it a POST is refused 403 before the session is looked at).
      const anonymous = { userId: 0, username: '', token: '', sessionId: 0, headers: await withXsrf(t) };
      expect((await call(method, url, anonymous, payload)).statusCode, url).toBe(401);
      const refused = await call(method, url, clerk, payload);
      expect(refused.statusCode, url).toBe(403);
      expect(refused.json().message).toBe('Only administrators can do that.');
    }
  });

  it("lists each user's lock, last sign-in and verified second factors", async () => {
    const ann = await buildUser(t, { username: 'ann' });
    const bob = await buildUser(t, { username: 'bob' });
    const now = t.clock.now();
    await t.store.db
      .updateTable('users')
      .set({
        phone: '+15551234567',
        phone_verified_at: now.toISOString(),
        totp_secret: 'sealed',
        totp_verified_at: now.toISOString(),
        locked_until: new Date(now.getTime() + 60_000).toISOString(),
      })
      .where('id', '=', ann.userId)
      .execute();
    // A lock that has run out is no lock.
    await t.store.db
      .updateTable('users')
      .set({ locked_until: new Date(now.getTime() - 60_000).toISOString() })
      .where('id', '=', bob.userId)
      .execute();
    await t.store.db
      .insertInto('passkeys')
      .values({
        user_id: ann.userId,
        credential_id: 'cred-ann',
        public_key: 'key',
        counter: 0,
        transports: null,
        name: 'Laptop',
        created_at: now.toISOString(),
        device_type: 'singleDevice',
      })
      .execute();
    const entry = (userId: number, action: string, at: string) => ({
      at,
      user_id: userId,
      action,
      target: `user:${userId}`,
    });
    await t.store.db
      .insertInto('audit_log')
      .values([
        entry(ann.userId, 'sign-in', '2026-01-01T10:00:00.000Z'),
        entry(ann.userId, 'social.sign-in', '2026-01-02T10:00:00.000Z'),
        // Not completed sign-ins: they do not count.
        entry(ann.userId, 'sign-in.password-failed', '2026-01-03T10:00:00.000Z'),
        entry(ann.userId, 'sign-in.refused-locked', '2026-01-03T11:00:00.000Z'),
        entry(bob.userId, 'sign-in', '2026-01-01T09:00:00.000Z'),
      ])
      .execute();

    const page = (await call('GET', '/api/admin/users?username=', admin)).json().data;
    const byName = new Map<string, AdminUser>(page.results.map((u: AdminUser) => [u.username, u]));
    expect(byName.get('ann')).toMatchObject({
      isLocked: true,
      lastSignInAt: '2026-01-02T10:00:00.000Z',
      twoFactor: ['Email', 'Phone', 'Totp', 'Passkey'],
    });
    expect(byName.get('bob')).toMatchObject({
      isLocked: false,
      lastSignInAt: '2026-01-01T09:00:00.000Z',
      twoFactor: ['Email'],
    });
    expect(byName.get('boss')).toMatchObject({ isLocked: false, lastSignInAt: null, isAdmin: true });
  });

  it("answers one user's page, and 404 for a user who does not exist", async () => {
    const cara = await buildUser(t, { username: 'cara', links: ['/db/*'] });
    await anotherSession(cara);
    const detail = await detailOf(cara);
    expect(detail).toMatchObject({
      id: cara.userId,
      username: 'cara',
      email: 'cara@example.com',
      isAdmin: false,
      isLocked: false,
      roles: [{ Name: 'role-cara' }],
      twoFactor: ['Email'],
      preferred2fa: null,
      recoveryCodesLeft: 0,
      passkeys: 0,
      activeSessions: 2,
      failedChecks: 0,
    });
    const missing = await call('GET', '/api/admin/users/999999', admin);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ isSuccess: false, data: null, message: userMessages.notFound });
    expect((await call('GET', '/api/admin/users/0', admin)).statusCode).toBe(400);
  });

  it("sets a user's roles to exactly the ones given, counted from their next call, and audits before and after", async () => {
    const dan = await buildUser(t, { username: 'dan', links: ['/db/shop/*'] });
    const ownRole = (await detailOf(dan)).roles[0]?.Id ?? 0;
    expect((await call('GET', '/api/admin/users', dan)).statusCode).toBe(403);

    const saved = await call('POST', `/api/admin/users/${dan.userId}/roles`, admin, { roleIds: [1, 2, 2] });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().message).toBe(userMessages.rolesSaved);
    expect(saved.json().data).toMatchObject({
      id: dan.userId,
      isAdmin: true,
      roles: [
        { Id: 1, Name: 'Administrator' },
        { Id: 2, Name: 'User' },
      ],
    });
    // At once: the next call sees the Administrator role, and the role dropped no longer gives its link.
    expect((await call('GET', '/api/admin/users', dan)).statusCode).toBe(200);
    const verify = (await call('GET', '/api/account/verify', dan)).json().data;
    expect(verify.links).not.toContain('/db/shop/*');
    const [entry] = await auditOf('admin.user.roles', dan.userId);
    expect(entry?.user_id).toBe(admin.userId);
    expect(JSON.parse(entry?.detail ?? 'null')).toEqual({ before: [ownRole], after: [1, 2] });

    // Back to none: the administrator right ends at the next call.
    const none = await call('POST', `/api/admin/users/${dan.userId}/roles`, admin, { roleIds: [] });
    expect(none.json().data).toMatchObject({ isAdmin: false, roles: [] });
    expect((await call('GET', '/api/admin/users', dan)).statusCode).toBe(403);
  });

  it('refuses an unknown role, a missing user, and taking the Administrator role from the last administrator', async () => {
    const eve = await buildUser(t, { username: 'eve' });
    const unknown = await call('POST', `/api/admin/users/${eve.userId}/roles`, admin, { roleIds: [2, 9999] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(userMessages.unknownRole(9999));
    expect((await detailOf(eve)).roles).toEqual([]);
    const invalid = await call('POST', `/api/admin/users/${eve.userId}/roles`, admin, { roleIds: ['x'] });
    expect(invalid.statusCode).toBe(400);
    const missing = await call('POST', '/api/admin/users/999999/roles', admin, { roleIds: [2] });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(userMessages.notFound);

    const last = await call('POST', `/api/admin/users/${admin.userId}/roles`, admin, { roleIds: [2] });
    expect(last.statusCode).toBe(400);
    expect(last.json().message).toBe(roleMessages.lastAdministrator);
    expect((await detailOf(admin)).isAdmin).toBe(true);
    expect(await auditOf('admin.user.roles', admin.userId)).toEqual([]);

    // With a second administrator, one of them may step down.
    const deputy = await buildAdmin(t, { username: 'deputy' });
    const stepDown = await call('POST', `/api/admin/users/${deputy.userId}/roles`, admin, { roleIds: [2] });
    expect(stepDown.statusCode).toBe(200);
    expect(stepDown.json().data.isAdmin).toBe(false);
  });

  it('locks another user until unlocked: their sessions end at once and every call of theirs is refused', async () => {
    const fay = await buildUser(t, { username: 'fay', links: ['/db/*'] });
    const phone = await anotherSession(fay);
    expect((await call('GET', '/api/account/verify', fay)).statusCode).toBe(200);

    const locked = await call('POST', `/api/admin/users/${fay.userId}/lock`, admin, {});
    expect(locked.statusCode).toBe(200);
    expect(locked.json().message).toBe(userMessages.locked);
    expect(locked.json().data).toMatchObject({
      id: fay.userId,
      isLocked: true,
      lockedUntil: LOCKED_UNTIL_UNLOCKED,
      activeSessions: 0,
    });
    expect((await call('GET', '/api/account/verify', fay)).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/account/verify', headers: phone })).statusCode,
    ).toBe(401);
    const [entry] = await auditOf('admin.user.locked', fay.userId);
    expect(entry?.user_id).toBe(admin.userId);
    expect(JSON.parse(entry?.detail ?? 'null')).toEqual({ before: null, until: LOCKED_UNTIL_UNLOCKED });
    const [ended] = await auditOf('account.sessions-ended', fay.userId);
    expect(JSON.parse(ended?.detail ?? 'null')).toMatchObject({ reason: 'locked', sessions: 2 });

    // A lock until an instant, given with an offset, is kept as UTC.
    const until = new Date(t.clock.now().getTime() + 3_600_000);
    const withOffset = until.toISOString().replace('Z', '+00:00');
    const timed = await call('POST', `/api/admin/users/${fay.userId}/lock`, admin, { until: withOffset });
    expect(timed.json().data).toMatchObject({ isLocked: true, lockedUntil: until.toISOString() });
  });

  it('refuses locking oneself, a lock that ends in the past, and a missing user', async () => {
    const gus = await buildUser(t, { username: 'gus' });
    const self = await call('POST', `/api/admin/users/${admin.userId}/lock`, admin, { until: null });
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe(userMessages.notYourself);
    const past = await call('POST', `/api/admin/users/${gus.userId}/lock`, admin, {
      until: new Date(t.clock.now().getTime() - 1000).toISOString(),
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toBe(userMessages.lockInPast);
    const notInstant = await call('POST', `/api/admin/users/${gus.userId}/lock`, admin, {
      until: 'tomorrow',
    });
    expect(notInstant.statusCode).toBe(400);
    expect((await call('POST', '/api/admin/users/999999/lock', admin, {})).statusCode).toBe(404);
    expect((await detailOf(gus)).isLocked).toBe(false);
    expect((await call('GET', '/api/account/verify', gus)).statusCode).toBe(200);
    expect((await call('GET', '/api/account/verify', admin)).statusCode).toBe(200);
  });

  it('unlocks a user and clears their failed checks', async () => {
    const hal = await buildUser(t, { username: 'hal' });
    await t.store.db
      .updateTable('users')
      .set({ locked_until: new Date(t.clock.now().getTime() + 900_000).toISOString(), failed_logins: 3 })
      .where('id', '=', hal.userId)
      .execute();
    const unlocked = await call('POST', `/api/admin/users/${hal.userId}/unlock`, admin);
    expect(unlocked.statusCode).toBe(200);
    expect(unlocked.json().message).toBe(userMessages.unlocked);
    expect(unlocked.json().data).toMatchObject({ isLocked: false, lockedUntil: null, failedChecks: 0 });
    const [entry] = await auditOf('admin.user.unlocked', hal.userId);
    expect(JSON.parse(entry?.detail ?? 'null')).toMatchObject({ before: { failedChecks: 3 } });
    expect((await call('POST', '/api/admin/users/999999/unlock', admin)).statusCode).toBe(404);
  });

  it('resets the second factors: app, phone verification, passkeys and recovery codes go; the phone number stays', async () => {
    const ida = await buildUser(t, { username: 'ida' });
    const now = t.clock.now().toISOString();
    await t.store.db
      .updateTable('users')
      .set({
        phone: '+15557654321',
        phone_verified_at: now,
        totp_secret: 'sealed',
        totp_verified_at: now,
        totp_pending_secret: 'pending',
        totp_last_step: 42,
        preferred_2fa: 'Totp',
      })
      .where('id', '=', ida.userId)
      .execute();
    await t.store.db
      .insertInto('passkeys')
      .values({
        user_id: ida.userId,
        credential_id: 'cred-ida',
        public_key: 'key',
        counter: 0,
        transports: null,
        name: 'Phone',
        created_at: now,
        device_type: 'multiDevice',
      })
      .execute();
    await t.store.db
      .insertInto('recovery_codes')
      .values([1, 2, 3].map((n) => ({ user_id: ida.userId, code_hash: `hash-${n}`, created_at: now })))
      .execute();
    expect(await detailOf(ida)).toMatchObject({
      twoFactor: ['Email', 'Phone', 'Totp', 'Passkey'],
      recoveryCodesLeft: 3,
      passkeys: 1,
    });

    const reset = await call('POST', `/api/admin/users/${ida.userId}/reset-2fa`, admin);
    expect(reset.statusCode).toBe(200);
    expect(reset.json().message).toBe(userMessages.secondFactorReset);
    expect(reset.json().data).toMatchObject({
      twoFactor: ['Email'],
      preferred2fa: null,
      recoveryCodesLeft: 0,
      passkeys: 0,
      activeSessions: 1,
    });
    const row = await t.store.db
      .selectFrom('users')
      .select([
        'phone',
        'phone_verified_at',
        'totp_secret',
        'totp_verified_at',
        'totp_pending_secret',
        'totp_last_step',
        'preferred_2fa',
      ])
      .where('id', '=', ida.userId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      phone: '+15557654321',
      phone_verified_at: null,
      totp_secret: null,
      totp_verified_at: null,
      totp_pending_secret: null,
      totp_last_step: null,
      preferred_2fa: null,
    });
    const [entry] = await auditOf('admin.user.2fa-reset', ida.userId);
    expect(JSON.parse(entry?.detail ?? 'null')).toEqual({
      before: { twoFactor: ['Email', 'Phone', 'Totp', 'Passkey'], preferred2fa: 'Totp' },
      passkeys: 1,
      recoveryCodes: 3,
    });
    expect((await call('POST', '/api/admin/users/999999/reset-2fa', admin)).statusCode).toBe(404);
  });

  it("ends another user's sessions, refused for one's own", async () => {
    const jo = await buildUser(t, { username: 'jo' });
    const laptop = await anotherSession(jo);
    const ended = await call('POST', `/api/admin/users/${jo.userId}/end-sessions`, admin);
    expect(ended.statusCode).toBe(200);
    expect(ended.json().message).toBe('Ended 2 sessions.');
    expect(ended.json().data).toMatchObject({ id: jo.userId, activeSessions: 0, isLocked: false });
    expect((await call('GET', '/api/account/verify', jo)).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/account/verify', headers: laptop })).statusCode,
    ).toBe(401);
    const [entry] = await auditOf('admin.user.sessions-ended', jo.userId);
    expect(entry?.user_id).toBe(admin.userId);
    expect(JSON.parse(entry?.detail ?? 'null')).toEqual({ sessions: 2 });
    const again = await call('POST', `/api/admin/users/${jo.userId}/end-sessions`, admin);
    expect(again.json().message).toBe(userMessages.sessionsEnded(0));

    const own = await call('POST', `/api/admin/users/${admin.userId}/end-sessions`, admin);
    expect(own.statusCode).toBe(400);
    expect(own.json().message).toBe(userMessages.notYourself);
    expect((await call('GET', '/api/account/verify', admin)).statusCode).toBe(200);
    expect((await call('POST', '/api/admin/users/999999/end-sessions', admin)).statusCode).toBe(404);
  });

  it('routes /api/admin/users/{id}/{action} to the user actions, not to the generic admin data calls', async () => {
    // /api/admin/users/5/lock has the shape of POST /api/admin/:db/:schema/:table too; the static segments win.
    const routes = t.app.routeTable.map((r) => `${r.method} ${r.url}`);
    expect(routes).toEqual(
      expect.arrayContaining(['POST /api/admin/:db/:schema/:table', 'POST /api/admin/users/:id/lock']),
    );
    const kim = await buildUser(t, { username: 'kim' });
    for (const action of ['lock', 'unlock', 'reset-2fa', 'end-sessions', 'roles']) {
      const answer = await call(
        'POST',
        `/api/admin/users/${kim.userId}/${action}`,
        admin,
        action === 'roles' ? { roleIds: [2] } : {},
      );
      expect([action, answer.statusCode]).toEqual([action, 200]);
      expect(answer.json().data).toMatchObject({ id: kim.userId, username: 'kim' });
    }
    // Other paths of that shape still reach the generic calls (and their refusal).
    const other = await call('POST', `/api/admin/users/${kim.userId}/rename`, admin, {});
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe('That table cannot be edited here.');
  });

  it('describes every user action in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    for (const action of ['roles', 'lock', 'unlock', 'reset-2fa', 'end-sessions'])
      expect(doc.paths[`/api/admin/users/{id}/${action}`]?.post, action).toBeDefined();
    expect(doc.paths['/api/admin/users/{id}']?.get).toBeDefined();
    expect(doc.paths['/api/admin/overview']?.get).toBeDefined();
  });
});
