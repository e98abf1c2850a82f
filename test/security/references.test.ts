import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Reference } from '#common/contract/relations.ts';
import { tablePath } from '#common/links.ts';
import { buildUser, type TestUser } from '#server/test/factories.ts';
import {
  expectHealthy,
  expectNoLeak,
  openSecurityTarget,
  quoteName,
  securityEngines,
  type SecurityTarget,
} from './harness.ts';

/*
 * Referenced by (issue 37, decision 0065) never tells a caller about a table they may not read: a user whose links
 * show the canary alone gets the same answer whether a hidden table references the row or not, and the hidden
 * table's name appears nowhere in it; an administrator sees the reference (a hostile table name included) and its
 * count. The canary and the process's health are checked after every test.
 */
describe.each(securityEngines)('references on %s', (kind) => {
  let target: SecurityTarget;
  let limited: TestUser;
  const hidden = 'hidden_orders';
  const hostile = "it's; drop";

  async function refs(user: TestUser, table: string, key: unknown) {
    const response = await target.t.app.inject({
      method: 'POST',
      url: target.apiPath(table, '/references'),
      headers: { ...user.headers, 'content-type': 'application/json' },
      payload: JSON.stringify(key),
    });
    expectNoLeak(response);
    return response;
  }

  beforeAll(async () => {
    target = await openSecurityTarget(kind);
    const q = (name: string) => quoteName(kind, name);
    for (const name of [hidden, hostile]) {
      await target.run(
        `CREATE TABLE ${q(name)} (id integer primary key, canary_id integer, ` +
          `FOREIGN KEY (canary_id) REFERENCES ${q('canary')} (id))`,
      );
      await target.run(
        `CREATE INDEX ${q(`ix_${name === hidden ? 'h' : 'x'}_canary`)} ON ${q(name)} (canary_id)`,
      );
      await target.run(`INSERT INTO ${q(name)} (id, canary_id) VALUES (1, 1), (2, 1)`);
    }
    await target.engine.catalog({ refresh: true });
    limited = await buildUser(target.t, { links: [tablePath('target', target.schema, 'canary')] });
  }, 120_000);
  afterEach(async () => {
    await target.expectCanaryIntact();
    await expectHealthy(target);
  });
  afterAll(async () => {
    await target?.close();
  });

  it('shows an administrator every referencing table, a hostile name included, with its count', async () => {
    const response = await refs(target.admin, 'canary', { id: 1 });
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json<{ data: Reference[] }>().data;
    expect(data.map((r) => [r.table, r.count]).sort()).toEqual([
      [hidden, 2],
      [hostile, 2],
    ]);
  });

  it('never names nor counts a table the caller may not read', async () => {
    const referenced = await refs(limited, 'canary', { id: 1 });
    const unreferenced = await refs(limited, 'canary', { id: 3 });
    expect(referenced.statusCode).toBe(200);
    expect(referenced.json<{ data: Reference[] }>().data).toEqual([]);
    // The same answer whether hidden rows point at the key or not.
    expect(referenced.body).toBe(unreferenced.body);
    expect(referenced.body).not.toContain(hidden);
    expect(referenced.body).not.toContain('hidden');
    // Nor through the hidden table itself: refused as any table the links do not show.
    const refused = await refs(limited, hidden, { id: 1 });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain('canary_id');
  });
});
