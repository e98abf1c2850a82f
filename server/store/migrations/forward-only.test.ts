import { describe, expect, it } from 'vitest';
import { migrations } from './index.ts';

/*
 * The upgrade promise (docs/operations.md, "Upgrading"): the app store's migrations only move forward. A newer DBUI
 * migrates the store at its start; going back to an older DBUI means restoring the backup taken before the upgrade
 * (an older DBUI refuses a store with migrations it does not know: migrations.db.test.ts).
 */
describe('the app store migrations', () => {
  it('are numbered in the order they run', () => {
    const names = Object.keys(migrations);
    expect(names).toEqual([...names].sort());
    names.forEach((name, index) => expect(name.startsWith(String(index + 1).padStart(4, '0'))).toBe(true));
  });

  it('cannot be undone: every down refuses', async () => {
    for (const [name, migration] of Object.entries(migrations)) {
      expect(migration.down, name).toBeTypeOf('function');
      await expect(migration.down?.({} as never), name).rejects.toThrow('Migrations are forward-only.');
    }
  });
});
