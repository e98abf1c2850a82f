import { afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { prepareFirstAdministrator } from '#server/features/setup/service.ts';
import { openSecretBox } from '#server/features/account/sealed-secrets.ts';
import { secretBox } from '#server/crypto/secret-box.ts';
import { createPostgresDatabase, type TestDatabase } from '#server/test/server-databases.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import { migrateAppStore, openAppStore, type AppStore } from '#server/store/app-store.ts';
import { migrations } from '#server/store/migrations/index.ts';

/*
 * Issue 18: several instances starting at once against one empty PostgreSQL app store. Each "instance" here is an
 * app store of its own (its own pool, so its own connections and sessions), as two processes would have; they run
 * the whole one-time start-up work main.ts and buildApp do, at the same moment.
 */

const INSTANCES = 3;
const silent = pino({ level: 'silent' });
const box = secretBox(Buffer.alloc(32, 9));
const admin = { username: 'admin', password: 'Admin#12345', email: 'admin@example.com' };

describe('instances starting at once on an empty PostgreSQL app store', () => {
  let database: TestDatabase;
  let stores: AppStore[] = [];

  afterEach(async () => {
    await Promise.allSettled(stores.map((s) => s.close()));
    stores = [];
    await database.drop();
  });

  async function startTogether(): Promise<AppStore[]> {
    database = await createPostgresDatabase('dbui_concurrent');
    stores = Array.from({ length: INSTANCES }, () => openAppStore({ kind: 'postgres', url: database.url }));
    const results = await Promise.all(stores.map((store) => migrateAppStore(store)));
    // One instance ran every migration; the others found them done (they waited on Kysely's advisory lock).
    const ran = results.flat().map((r) => [r.migrationName, r.status]);
    expect(ran).toEqual(Object.keys(migrations).map((name) => [name, 'Success']));
    expect(results.filter((r) => r.length > 0)).toHaveLength(1);
    const recorded = await stores[0]!.db
      .selectFrom('dbui_migrations' as never)
      .select('name' as never)
      .execute();
    expect(recorded).toHaveLength(Object.keys(migrations).length);
    return stores;
  }

  it('migrate it once and create the administrator from ADMIN_* once', async () => {
    await startTogether();
    const dir = tempDir();
    try {
      const config = { secretKey: 'k'.repeat(40), dataDir: dir.path };
      // buildApp's shared secrets and the secret key's fingerprint: every instance reads the same values.
      await Promise.all(stores.map((store) => openSecretBox(store, config)));
      const outcomes = await Promise.all(
        stores.map((store) => prepareFirstAdministrator(store, admin, silent, box)),
      );
      expect(outcomes).toEqual(stores.map(() => ({ setupToken: null })));
    } finally {
      dir.remove();
    }
    const db = stores[0]!.db;
    expect(await db.selectFrom('users').select(['username', 'is_admin']).execute()).toEqual([
      { username: 'admin', is_admin: 1 },
    ]);
    expect(await db.selectFrom('user_roles').select('role_id').execute()).toEqual([{ role_id: 1 }]);
    expect(await db.selectFrom('audit_log').select('action').execute()).toEqual([
      { action: 'setup.admin-from-environment' },
    ]);
    const settings = await db
      .selectFrom('settings')
      .select('name')
      .where('name', '=', 'secret-key-fingerprint')
      .execute();
    expect(settings).toHaveLength(1);
  });

  it('migrate it once and print one setup link, the same on every instance', async () => {
    await startTogether();
    const outcomes = await Promise.all(
      stores.map((store) => prepareFirstAdministrator(store, null, silent, box)),
    );
    const tokens = new Set(outcomes.map((o) => o.setupToken));
    expect(tokens.size).toBe(1);
    expect([...tokens][0]).toMatch(/^[\w-]{43}$/);
    const codes = await stores[0]!.db
      .selectFrom('one_time_codes')
      .select('id')
      .where('purpose', '=', 'setup')
      .where('used_at', 'is', null)
      .execute();
    expect(codes).toHaveLength(1);
  });
});
