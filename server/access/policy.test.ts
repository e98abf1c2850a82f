import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInAccount } from '#server/plugins/session.ts';
import { buildRole, buildUser, type TestUser } from '#server/test/factories.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';
import { databasePermissions, NO_RIGHTS, tablePermissions } from './policy.ts';

/*
 * Write permissions read for a whole table list at once (GET api/sql/{db}): the same answers as table by table,
 * whether the list is short (the TableIds asked for) or long (every permission row of the user's roles).
 */

let t: TestApp;
let user: TestUser;
let account: SignedInAccount;

beforeAll(async () => {
  t = await buildTestApp();
  user = await buildUser(t, {
    links: ['/db/shop/*', '/db/other/*'],
    permissions: [
      { table: 'shop/main/orders', canInsert: true },
      { table: 'shop/main/customers', canUpdate: true, canDelete: true },
      { table: 'other/main/orders', canInsert: true, canUpdate: true, canDelete: true },
    ],
  });
  // A second role of the same user adding a right on a table the first names too: rights add up.
  await buildRole(t, user.userId, {
    name: 'deleters',
    links: ['/db/shop/main/orders'],
    permissions: [{ table: 'shop/main/orders', canDelete: true }],
  });
  account = {
    userId: user.userId,
    username: user.username,
    isAdmin: false,
    sessionId: 0,
    links: ['/db/shop/*'],
    reauthenticatedAt: null,
    passwordExpired: false,
  };
});
afterAll(() => t?.close());

describe('permissions of a table list', () => {
  const named = ['orders', 'customers', 'products'].map((table) => ({ schema: 'main', table }));
  // Over a hundred tables: read as every permission row of the user's roles.
  const many = [...named, ...Array.from({ length: 150 }, (_, i) => ({ schema: 'main', table: `t${i}` }))];

  for (const [label, tables] of [
    ['a few tables', named],
    ['150 tables', many],
  ] as const) {
    it(`equal the per-table answers for ${label}`, async () => {
      const rightsOf = await databasePermissions(t.store, account, 'shop', [...tables]);
      expect(rightsOf({ schema: 'main', table: 'orders' })).toEqual({
        canInsert: true,
        canUpdate: false,
        canDelete: true,
      });
      expect(rightsOf({ schema: 'main', table: 'customers' })).toEqual({
        canInsert: false,
        canUpdate: true,
        canDelete: true,
      });
      expect(rightsOf({ schema: 'main', table: 'products' })).toEqual(NO_RIGHTS);
      expect(rightsOf({ schema: 'main', table: 't7' })).toEqual(NO_RIGHTS);
      for (const table of tables) {
        expect(rightsOf(table)).toEqual(
          await tablePermissions(t.store, account, { database: 'shop', ...table }),
        );
      }
    });
  }

  it('gives an administrator every right without asking the store', async () => {
    const rightsOf = await databasePermissions(t.store, { ...account, isAdmin: true }, 'shop', named);
    expect(rightsOf({ schema: 'main', table: 'products' })).toEqual({
      canInsert: true,
      canUpdate: true,
      canDelete: true,
    });
  });
});
