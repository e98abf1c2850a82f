import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectHealthy,
  expectNoLeak,
  openSecurityTarget,
  securityEngines,
  type SecurityTarget,
} from './harness.ts';

/* The harness itself: every hostile table is browsable by an administrator, and the oracles hold on a fresh target. */

describe.each(securityEngines)('the security target on %s', (kind) => {
  let target: SecurityTarget;
  beforeAll(async () => {
    target = await openSecurityTarget(kind);
  });
  afterAll(() => target?.close());

  it('serves every hostile table to an administrator by its encoded path', async () => {
    for (const table of target.tables) {
      const page = await target.t.app.inject({
        method: 'GET',
        url: target.apiPath(table, '/page/1'),
        headers: target.admin.headers,
      });
      expect(page.statusCode, `${table}: ${page.body}`).toBe(200);
      expect(page.json<{ data: { results: unknown[] } }>().data.results).toHaveLength(3);
      expectNoLeak(page);
    }
    await target.expectCanaryIntact();
    await expectHealthy(target);
  });

  it('recognises leaked internal text', () => {
    expect(() => expectNoLeak('{"message":"syntax error at or near \\"x\\""}')).toThrow();
    expect(() => expectNoLeak('Error\n    at foo (/x/server/a.ts:1:2)')).toThrow();
    expect(() => expectNoLeak('{"message":"That table was not found."}')).not.toThrow();
  });
});
