import { expect } from 'vitest';
import type { AppDatabase } from '#server/store/schema.ts';
import type { TestApp } from '#server/test/test-app.ts';
import { quoteName, type SecurityTarget } from './harness.ts';

/*
 * The "no side effect" oracle of the security suite: everything a refused call could have changed, read before and
 * after it. The app store is read whole (a table added to the schema must be added here, or this does not compile),
 * and the target database's hostile tables and canary are read row by row.
 */

type StoreTable = keyof AppDatabase;

/** Every table of the app store; `true` keeps the list complete (AppDatabase's keys, checked by the compiler). */
const STORE_TABLES: Record<StoreTable, true> = {
  users: true,
  user_images: true,
  roles: true,
  role_links: true,
  role_permissions: true,
  user_roles: true,
  sessions: true,
  one_time_codes: true,
  export_jobs: true,
  audit_log: true,
  bulk_jobs: true,
  import_jobs: true,
  audit_bulk_batches: true,
  sign_in_attempts: true,
  recovery_codes: true,
  settings: true,
  captcha_claims: true,
  passkeys: true,
  user_identities: true,
  oauth_transactions: true,
  contact_messages: true,
  analytics_page_views: true,
  analytics_consents: true,
  analytics_days: true,
  analytics_seen: true,
  chat_sessions: true,
  chat_messages: true,
  saved_views: true,
  saved_view_roles: true,
};

/** Columns every signed-in call changes by design: a session's last use and its sliding expiry. */
const VOLATILE: Partial<Record<StoreTable, string[]>> = { sessions: ['last_seen_at', 'expires_at'] };
/** Rows written by design on calls anyone may make: /api/health's probe that the app store takes writes. */
const VOLATILE_ROWS: Partial<Record<StoreTable, (row: Record<string, unknown>) => boolean>> = {
  settings: (row) => String(row.name).startsWith('health.'),
};

// Drivers answer some integers as bigint, which JSON cannot hold.
const text = (row: Record<string, unknown>) =>
  JSON.stringify(row, (_, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value));
const sorted = (rows: Record<string, unknown>[]) => rows.map(text).sort((a, b) => a.localeCompare(b));

/** Every row of every app store table but `except`, without the volatile session columns. */
export async function storeSnapshot(
  t: TestApp,
  options: { except?: StoreTable[] } = {},
): Promise<Record<string, string[]>> {
  const snapshot: Record<string, string[]> = {};
  for (const table of Object.keys(STORE_TABLES) as StoreTable[]) {
    if (options.except?.includes(table)) continue;
    const rows = (await t.store.db.selectFrom(table).selectAll().execute()) as Record<string, unknown>[];
    const volatile = VOLATILE[table] ?? [];
    const kept = rows.filter((row) => !VOLATILE_ROWS[table]?.(row));
    snapshot[table] = sorted(
      kept.map((row) => Object.fromEntries(Object.entries(row).filter(([name]) => !volatile.includes(name)))),
    );
  }
  return snapshot;
}

/** Every row of the target's hostile tables and canary (and of `extra` tables a test made). */
export async function dataSnapshot(
  target: SecurityTarget,
  extra: string[] = [],
): Promise<Record<string, string[]>> {
  const snapshot: Record<string, string[]> = {};
  for (const table of [target.canary, ...target.tables, ...extra]) {
    const rows = await target.run(`SELECT * FROM ${quoteName(target.kind, table)}`);
    snapshot[table] = sorted(rows as Record<string, unknown>[]);
  }
  return snapshot;
}

/**
 * Runs `calls` and fails if the app store (but `except`) or the target's tables changed. Refusals of data calls are
 * audited by design (access.denied), so tests of signed-in callers pass `except: ['audit_log']`.
 */
export async function expectNoSideEffect<T>(
  target: SecurityTarget,
  calls: () => Promise<T>,
  options: { except?: StoreTable[]; extraTables?: string[] } = {},
): Promise<T> {
  const store = await storeSnapshot(target.t, options);
  const data = await dataSnapshot(target, options.extraTables);
  const result = await calls();
  expect(await storeSnapshot(target.t, options), 'the app store changed').toEqual(store);
  expect(await dataSnapshot(target, options.extraTables), 'the target database changed').toEqual(data);
  await target.expectCanaryIntact();
  return result;
}
