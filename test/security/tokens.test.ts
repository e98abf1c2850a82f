import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken, sha256Hex } from '#server/crypto/tokens.ts';
import { slidingExpiry } from '#server/plugins/session.ts';
import { insertSession } from '#server/store/sessions.ts';
import { ADMINISTRATOR_ROLE_ID } from '#server/store/roles.ts';
import { buildUser, withXsrf, type TestUser } from '#server/test/factories.ts';
import { appStoreEnv } from './app-stores.ts';
import {
  expectHealthy,
  expectNoLeak,
  openSecurityTarget,
  securityEngines,
  type SecurityTarget,
} from './harness.ts';

/*
 * A bearer token is only as good as the account behind it, decided on every call (issue 10 finding 6): after logout,
 * after an administrator locks the account, after its deletion, every token of it is refused at once, and a role
 * change applies to the very next call. An automatic lockout (five failures in a row) is different: it answers
 * guessing, so it leaves the owner's sessions alone, except the one whose own re-authentication failed
 * (docs/decisions/0013-lockout-and-sessions.md). The app store is PostgreSQL with the PostgreSQL target, SQLite
 * otherwise, so both stores are covered.
 */

describe.each(securityEngines)('a token after its account changes (%s)', (kind) => {
  let target: SecurityTarget;
  let dropStore: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    const store = await appStoreEnv(kind === 'postgres' ? 'postgres' : 'sqlite');
    dropStore = store.drop;
    target = await openSecurityTarget(kind, { env: store.env });
  });
  afterAll(async () => {
    await target?.close();
    await dropStore();
  });

  const call = (user: TestUser, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    target.t.app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) });
  const readCanary = (user: TestUser) => call(user, 'GET', target.apiPath(target.canary, '/page/1'));
  const asAdmin = (url: string, payload: object) => call(target.admin, 'POST', url, payload);

  /** Another live session of the same account (a second device), as sign-in stores one. */
  async function anotherSession(user: TestUser): Promise<TestUser> {
    const { t } = target;
    const now = t.clock.now();
    const token = randomToken();
    const absoluteExpiresAt = new Date(now.getTime() + t.config.sessionMaxHours * 3_600_000).toISOString();
    await insertSession(
      t.store.db,
      {
        userId: user.userId,
        tokenHash: sha256Hex(token),
        expiresAt: slidingExpiry(now, absoluteExpiresAt, t.config.sessionIdleMinutes),
        absoluteExpiresAt,
        resetPassword: false,
        method: 'Email',
        address: '127.0.0.1',
      },
      now.toISOString(),
    );
    return { ...user, token, headers: await withXsrf(t, { authorization: `Bearer ${token}` }) };
  }

  /** Fails unless every call of the token is refused as signed out, with no internal text. */
  async function expectRefused(user: TestUser) {
    for (const answer of [await call(user, 'GET', '/api/account/verify'), await readCanary(user)]) {
      expect(answer.statusCode, answer.body).toBe(401);
      expectNoLeak(answer);
    }
  }

  async function expectWorks(user: TestUser) {
    expect((await call(user, 'GET', '/api/account/verify')).statusCode).toBe(200);
    expect((await readCanary(user)).statusCode).toBe(200);
  }

  const reader = () => buildUser(target.t, { links: ['/db/target/*'] });

  it('refuses a token after logout', async () => {
    const user = await reader();
    await expectWorks(user);
    expect((await call(user, 'GET', '/api/account/logout')).statusCode).toBe(200);
    await expectRefused(user);
  });

  it('refuses every token of an account an administrator locks, at once, and for good', async () => {
    const user = await reader();
    const laptop = await anotherSession(user);
    await expectWorks(user);
    await expectWorks(laptop);
    const until = new Date(target.t.clock.now().getTime() + 86_400_000).toISOString();
    const lock = await asAdmin('/api/admin/app/main/users', { id: user.userId, locked_until: until });
    expect(lock.statusCode, lock.body).toBe(200);
    await expectRefused(user);
    await expectRefused(laptop);
    // Unlocking opens the account to a new sign-in; the sessions it had stay ended.
    const unlock = await asAdmin('/api/admin/app/main/users', { id: user.userId, locked_until: null });
    expect(unlock.statusCode, unlock.body).toBe(200);
    await expectRefused(user);
    await expectRefused(laptop);
    await expectHealthy(target);
    await target.expectCanaryIntact();
  });

  it('applies a role change to the next call of a token', async () => {
    const user = await reader();
    expect((await call(user, 'GET', '/api/admin/users')).statusCode).toBe(403);
    const granted = await asAdmin('/api/admin/app/main/user_roles', {
      user_id: user.userId,
      role_id: ADMINISTRATOR_ROLE_ID,
    });
    expect(granted.statusCode, granted.body).toBe(200);
    expect((await call(user, 'GET', '/api/admin/users')).statusCode).toBe(200);
    const revoked = await asAdmin('/api/admin/app/main/user_roles/delete', {
      id: granted.json<{ data: { id: number } }>().data.id,
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect((await call(user, 'GET', '/api/admin/users')).statusCode).toBe(403);

    // The reader's own link taken away: the table is closed to the same token at once.
    const link = await target.t.store.db
      .selectFrom('role_links')
      .innerJoin('user_roles', 'user_roles.role_id', 'role_links.role_id')
      .select('role_links.id')
      .where('user_roles.user_id', '=', user.userId)
      .executeTakeFirstOrThrow();
    expect((await readCanary(user)).statusCode).toBe(200);
    const removed = await asAdmin('/api/admin/app/main/role_links/delete', { id: link.id });
    expect(removed.statusCode, removed.body).toBe(200);
    const closed = await readCanary(user);
    expect(closed.statusCode, closed.body).toBe(403);
    expectNoLeak(closed);
  });

  it('refuses every token of a deleted account', async () => {
    const user = await reader();
    const laptop = await anotherSession(user);
    await expectWorks(laptop);
    expect((await call(user, 'DELETE', '/api/account/delete')).statusCode).toBe(200);
    await expectRefused(user);
    await expectRefused(laptop);
  });

  it('keeps the other sessions through an automatic lockout, but ends the one whose re-authentication failed', async () => {
    const user = await reader();
    const laptop = await anotherSession(user);
    for (let i = 0; i < 5; i++) {
      const wrong = await call(user, 'POST', '/api/account/reauth', { password: 'Wrong#Pass1' });
      expect(wrong.statusCode, wrong.body).toBe(400);
    }
    const account = await target.t.store.db
      .selectFrom('users')
      .select('locked_until')
      .where('id', '=', user.userId)
      .executeTakeFirstOrThrow();
    expect(account.locked_until).not.toBeNull();
    await expectRefused(user);
    await expectWorks(laptop);
  });
});
