import SQLite from 'better-sqlite3';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOverview } from '#common/contract/admin.ts';
import { connectDatabase } from '#server/engines/connect.ts';
import { buildAdmin, buildUser, type TestUser } from '#server/test/factories.ts';
import { createPostgresDatabase, type TestDatabase } from '#server/test/server-databases.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';

/*
 * GET /api/admin/overview, the administrator's start page, on a SQLite and a PostgreSQL app store: the counts, the
 * databases' health, and the last 24 hours of failed checks, lockouts and data changes from the audit trail.
 */

describe.each(['sqlite', 'postgres'] as const)('the admin overview on a %s app store', (storeKind) => {
  const dir = tempDir();
  let t: TestApp;
  let store: TestDatabase | undefined;
  let admin: TestUser;
  let clerk: TestUser;

  beforeAll(async () => {
    const file = path.join(dir.path, 'shop.db');
    const db = new SQLite(file);
    db.exec('create table orders (id integer primary key, customer varchar(50))');
    db.close();
    store = storeKind === 'postgres' ? await createPostgresDatabase('dbui_store') : undefined;
    t = await buildTestApp({
      databases: [await connectDatabase('shop', 'sqlite', `sqlite:${file}`)],
      ...(store ? { env: { APP_DB_URL: store.url } } : {}),
    });
    admin = await buildAdmin(t, { username: 'boss' });
    clerk = await buildUser(t, { username: 'clerk', links: ['/db/shop/*'] });
  });
  afterAll(async () => {
    await t?.close();
    await store?.drop();
    dir.remove();
  });

  const overview = async (): Promise<AdminOverview> => {
    const answer = await t.app.inject({ method: 'GET', url: '/api/admin/overview', headers: admin.headers });
    expect(answer.statusCode).toBe(200);
    return answer.json().data;
  };
  const ago = (ms: number) => new Date(t.clock.now().getTime() - ms).toISOString();
  const HOUR = 3_600_000;

  it('is for administrators only', async () => {
    const refused = await t.app.inject({ method: 'GET', url: '/api/admin/overview', headers: clerk.headers });
    expect(refused.statusCode).toBe(403);
  });

  it('counts users, administrators, locked users, live sessions and roles, and tells each database’s health', async () => {
    const deputy = await buildAdmin(t, { username: 'deputy' });
    const locked = await buildUser(t, { username: 'locked' });
    const lockRanOut = await buildUser(t, { username: 'free-again' });
    const now = t.clock.now().getTime();
    await t.store.db
      .updateTable('users')
      .set({ locked_until: new Date(now + HOUR).toISOString() })
      .where('id', '=', locked.userId)
      .execute();
    await t.store.db
      .updateTable('users')
      .set({ locked_until: new Date(now - HOUR).toISOString() })
      .where('id', '=', lockRanOut.userId)
      .execute();
    // One session ended, one past its idle expiry: neither is live.
    await t.store.db
      .updateTable('sessions')
      .set({ revoked_at: new Date(now).toISOString() })
      .where('user_id', '=', deputy.userId)
      .execute();
    await t.store.db
      .updateTable('sessions')
      .set({ expires_at: new Date(now - 1000).toISOString() })
      .where('user_id', '=', lockRanOut.userId)
      .execute();

    const data = await overview();
    expect(data).toMatchObject({
      users: 5,
      administrators: 2,
      lockedUsers: 1,
      // boss, clerk and locked (a lock set in the store directly ends nothing; the lock action does).
      activeSessions: 3,
      // The three built-in roles and the clerk's own.
      roles: 4,
    });
    expect(data.health).toMatchObject({
      status: 'up',
      appStore: { engine: storeKind, status: 'up', writable: true },
      databases: [{ name: 'shop', engine: 'sqlite', status: 'up' }],
    });
  });

  it('counts the last 24 hours of failed checks, lockouts and data changes, and shows the newest of each', async () => {
    const before = await overview();
    const entry = (action: string, at: string, extra: Record<string, unknown> = {}) => ({
      at,
      user_id: clerk.userId,
      action,
      target: `user:${clerk.userId}`,
      ...extra,
    });
    const failures = [
      'sign-in.password-failed',
      'sign-in.code-failed',
      'sign-in.passkey-failed',
      'reauth.failed',
      'sign-in.refused-locked',
    ];
    await t.store.db
      .insertInto('audit_log')
      .values([
        // Older than a day: not counted, and older than every entry below.
        entry('sign-in.password-failed', ago(25 * HOUR)),
        entry('account.locked', ago(25 * HOUR)),
        entry('data.update', ago(25 * HOUR), { target: '/db/shop/main/orders' }),
        // Twelve failed checks in the last hours, a lockout, and entries that are neither.
        ...Array.from({ length: 12 }, (_, i) =>
          entry(failures[i % failures.length] ?? '', ago((20 - i) * HOUR)),
        ),
        entry('account.locked', ago(7 * HOUR), { detail: JSON.stringify({ until: ago(-HOUR), after: 5 }) }),
        entry('sign-in', ago(6 * HOUR)),
        entry('social.failed', ago(6 * HOUR)),
        entry('admin.data.update', ago(6 * HOUR)),
      ])
      .execute();
    const change = await t.store.db
      .insertInto('audit_log')
      .values({
        at: ago(2 * HOUR),
        user_id: admin.userId,
        action: 'data.update',
        target: '/db/shop/main/orders',
        detail: JSON.stringify({ key: { id: 1 }, before: { customer: 'A' }, after: { customer: 'B' } }),
        state: 'done',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const undoAt = ago(HOUR);
    const undo = await t.store.db
      .insertInto('audit_log')
      .values({
        at: undoAt,
        user_id: clerk.userId,
        action: 'data.undo',
        target: '/db/shop/main/orders',
        detail: JSON.stringify({ of: change.id }),
        undo_of: change.id,
        state: 'done',
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    const data = await overview();
    expect(data.signInFailures24h - before.signInFailures24h).toBe(12);
    expect(data.lockouts24h - before.lockouts24h).toBe(1);
    expect(data.changes24h - before.changes24h).toBe(2);

    // The newest 10 of the failures and lockouts together, newest first.
    expect(data.recentFailures).toHaveLength(10);
    const times = data.recentFailures.map((e) => e.at);
    expect(times).toEqual([...times].sort().reverse());
    expect(data.recentFailures.map((e) => e.action)).toContain('account.locked');
    expect(data.recentFailures.every((e) => [...failures, 'account.locked'].includes(e.action))).toBe(true);
    const lockout = data.recentFailures.find((e) => e.action === 'account.locked');
    expect(lockout).toMatchObject({ userId: clerk.userId, username: 'clerk', detail: { after: 5 } });

    // The data changes as the audit trail answers them (audit-service's mapping): detail parsed, undone by.
    expect(data.recentChanges.slice(0, 2)).toEqual([
      {
        id: undo.id,
        at: undoAt,
        userId: clerk.userId,
        username: 'clerk',
        action: 'data.undo',
        target: '/db/shop/main/orders',
        detail: { of: change.id },
        address: null,
        undoneBy: null,
        state: 'done',
      },
      expect.objectContaining({
        id: change.id,
        username: 'boss',
        action: 'data.update',
        detail: { key: { id: 1 }, before: { customer: 'A' }, after: { customer: 'B' } },
        undoneBy: undo.id,
        state: 'done',
      }),
    ]);
    expect(data.recentChanges.every((e) => e.action.startsWith('data.'))).toBe(true);
  });
});
