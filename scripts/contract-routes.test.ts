import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';
import { contractRoutes } from '#web/test/contract-routes.ts';

/*
 * The web tests' route table (web/test/contract-routes.ts) is written by hand; the fake API checks canned answers
 * against it. This compares it with the routes the real app registers (its routeTable, filled by an onRoute hook in
 * server/app.ts), built in-process on a SQLite app store: a server route without its line, or a line naming no route,
 * fails here. It lives in scripts/ because web/ may not import server/ nor server/ web/, and test/ (the attack
 * suites) no web/; scripts/ has only the ../ ban, and its tests run in npm run test:unit.
 */

/** The API's routes, without the OpenAPI documentation (/api/docs…) that swagger-ui registers. */
const isApiRoute = (url: string) => url.startsWith('/api/') && !url.startsWith('/api/docs');

describe('web/test/contract-routes.ts against the server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.ready();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists every API route the server registers, and no other', () => {
    const server = [
      ...new Set(t.app.routeTable.filter((r) => isApiRoute(r.url)).map((r) => `${r.method} ${r.url}`)),
    ].sort();
    const listed = contractRoutes.map((r) => `${r.method} ${r.path}`);
    const duplicated = listed.filter((key, index) => listed.indexOf(key) !== index);
    const missing = server.filter((key) => !listed.includes(key));
    const extra = [...new Set(listed)].filter((key) => !server.includes(key)).sort();

    expect(server.length, 'the app registered no API route: is routeTable still filled?').toBeGreaterThan(0);
    // One assertion, so a failure names every drift at once: `missing` wants a line each, `extra` names no route.
    expect(
      { missing, extra, duplicated },
      'web/test/contract-routes.ts against the server: add the missing lines, remove or fix the extra ones',
    ).toEqual({ missing: [], extra: [], duplicated: [] });
  });
});
