import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '#server/test/temp-dir.ts';
import { migrateAppStore, openAppStore, type AppStore } from './app-store.ts';
import { markAccessChanged } from './roles.ts';
import { findLiveSession, insertSession, revokeSession } from './sessions.ts';
import { insertUser } from './users.ts';

/* findLiveSession's statement is compiled once per database handle and run with each call's values. */

let store: AppStore;
beforeEach(async () => {
  store = openAppStore({ kind: 'sqlite', file: ':memory:' });
  await migrateAppStore(store);
});
afterEach(async () => {
  await store.close();
});

const NOW = '2026-01-01T12:00:00.000Z';
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

async function session(username: string, tokenHash: string, expiresAt: string): Promise<number> {
  const userId = await insertUser(
    store.db,
    { username, email: `${username}@example.com`, passwordHash: 'x', isAdmin: false, emailVerified: true },
    NOW,
  );
  return insertSession(
    store.db,
    {
      userId,
      tokenHash,
      expiresAt,
      absoluteExpiresAt: '2026-01-02T00:00:00.000Z',
      resetPassword: false,
      method: 'Email',
      address: null,
    },
    NOW,
  );
}

describe('findLiveSession', () => {
  it("answers each call's own session, not the first one's, and none that is expired or revoked", async () => {
    const ann = await session('ann', 'hash-ann', '2026-01-01T13:00:00.000Z');
    await session('bob', 'hash-bob', '2026-01-01T14:00:00.000Z');
    expect(await findLiveSession(store.db, 'hash-ann', NOW)).toMatchObject({ id: ann, username: 'ann' });
    expect(await findLiveSession(store.db, 'hash-bob', NOW)).toMatchObject({ username: 'bob' });
    // The time is the call's: at 13:30 Ann's sliding expiry has passed, Bob's has not.
    expect(await findLiveSession(store.db, 'hash-ann', '2026-01-01T13:30:00.000Z')).toBeUndefined();
    expect(await findLiveSession(store.db, 'hash-bob', '2026-01-01T13:30:00.000Z')).toMatchObject({
      username: 'bob',
    });
    expect(await findLiveSession(store.db, 'no such hash', NOW)).toBeUndefined();
    await revokeSession(store.db, ann, NOW);
    expect(await findLiveSession(store.db, 'hash-ann', NOW)).toBeUndefined();
  });

  it('reads the rights version in the same statement, as it is at each call', async () => {
    await session('ann', 'hash-ann', '2026-01-01T13:00:00.000Z');
    const before = await findLiveSession(store.db, 'hash-ann', NOW);
    await markAccessChanged(store.db);
    const after = await findLiveSession(store.db, 'hash-ann', NOW);
    expect(after?.access_version).toBeTruthy();
    expect(after?.access_version).not.toBe(before?.access_version);
  });

  it('reads an SQLite store directly, and waits for a transaction open on it rather than see its writes', async () => {
    const ann = await session('ann', 'hash-ann', '2026-01-01T13:00:00.000Z');
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let revoked = () => {};
    const revoking = new Promise<void>((resolve) => (revoked = resolve));
    const transaction = store.db.transaction().execute(async (trx) => {
      await revokeSession(trx, ann, NOW);
      revoked();
      await held;
      throw new Error('rolled back');
    });
    await revoking;
    // The revocation is not committed: the read waits for the transaction, which rolls back.
    const reading = findLiveSession(store.db, 'hash-ann', NOW);
    release();
    await expect(transaction).rejects.toThrow('rolled back');
    expect(await reading).toMatchObject({ id: ann, username: 'ann' });
    await revokeSession(store.db, ann, NOW);
    expect(await findLiveSession(store.db, 'hash-ann', NOW)).toBeUndefined();
  });
});

describe('findLiveSession keeps what it found on an SQLite store', () => {
  // A file, so that another connection can change it behind the store's back.
  let dir: ReturnType<typeof tempDir>;
  let byHand: SQLite.Database;
  beforeEach(async () => {
    await store.close();
    dir = tempDir();
    const file = path.join(dir.path, 'app.db');
    store = openAppStore({ kind: 'sqlite', file });
    await migrateAppStore(store);
    byHand = new SQLite(file);
  });
  afterEach(() => {
    byHand.close();
    dir.remove();
  });
  const revokeByHand = (id: number) =>
    byHand.prepare('update sessions set revoked_at = ? where id = ?').run(NOW, id);

  it('not after a change another connection committed (someone with the sqlite3 tool), from the next turn', async () => {
    const ann = await session('ann', 'hash-ann', '2026-01-01T13:00:00.000Z');
    expect(await findLiveSession(store.db, 'hash-ann', NOW)).toMatchObject({ id: ann });
    expect(await findLiveSession(store.db, 'hash-ann', NOW)).toMatchObject({ id: ann });
    revokeByHand(ann);
    // The calls of one turn of the event loop arrived before it began: they are answered as of its start.
    expect(await findLiveSession(store.db, 'hash-ann', NOW)).toMatchObject({ id: ann });
    await nextTurn();
    expect(await findLiveSession(store.db, 'hash-ann', NOW)).toBeUndefined();
  });

  it('answers a second call from what the first found while nothing was written', async () => {
    const ann = await session('ann', 'hash-ann', '2026-01-01T13:00:00.000Z');
    const first = await findLiveSession(store.db, 'hash-ann', NOW);
    expect(first).toMatchObject({ id: ann });
    expect(await findLiveSession(store.db, 'hash-ann', '2026-01-01T12:30:00.000Z')).toBe(first);
  });

  it('not after any write through the store, which counts at the next call', async () => {
    const ann = await session('ann', 'hash-ann', '2026-01-01T13:00:00.000Z');
    expect(await findLiveSession(store.db, 'hash-ann', NOW)).toMatchObject({ id: ann });
    revokeByHand(ann);
    await markAccessChanged(store.db);
    expect(await findLiveSession(store.db, 'hash-ann', NOW)).toBeUndefined();

    const bob = await session('bob', 'hash-bob', '2026-01-01T13:00:00.000Z');
    expect(await findLiveSession(store.db, 'hash-bob', NOW)).toMatchObject({ id: bob });
    await revokeSession(store.db, bob, NOW);
    expect(await findLiveSession(store.db, 'hash-bob', NOW)).toBeUndefined();
  });

  it('never past its sliding expiry', async () => {
    await session('ann', 'hash-ann', '2026-01-01T13:00:00.000Z');
    expect(await findLiveSession(store.db, 'hash-ann', '2026-01-01T12:59:59.500Z')).toMatchObject({
      username: 'ann',
    });
    expect(await findLiveSession(store.db, 'hash-ann', '2026-01-01T13:00:00.000Z')).toBeUndefined();
  });
});
