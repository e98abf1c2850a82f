import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountApiMessages as am } from '#common/messages.ts';
import { XSRF_COOKIE, XSRF_HEADER } from '#server/plugins/csrf.ts';
import { TEST_PASSWORD, buildAdmin, withXsrf, type TestUser } from '#server/test/factories.ts';
import {
  expectHealthy,
  expectNoLeak,
  openSecurityTarget,
  quoteName,
  securityEngines,
  type SecurityTarget,
} from './harness.ts';
import { expectNoSideEffect } from './side-effects.ts';

/*
 * Cross-site request forgery on every state-changing route (every method but GET, from the route table, so a new
 * route is covered the day it is added), on SQLite, PostgreSQL and MariaDB. The caller is an administrator, who may
 * do everything, and each body is one that would change something: without the X-XSRF-TOKEN header, with a wrong
 * one, with another session's pair, with a pair issued before sign-in, or with the cookie alone, every call is
 * refused with 403 and nothing changes (app store, target tables, canary). GET routes change nothing without the
 * bearer header, which a page on another site cannot send (the token lives in the web app's storage, not a cookie).
 * A control shows the same calls with the right pair do change things, so the bodies are real.
 */

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
const isApi = (url: string) => url.startsWith('/api/') && !url.startsWith('/api/docs');

describe.each(securityEngines)('CSRF on %s', (kind) => {
  let target: SecurityTarget;
  let admin: TestUser;
  let otherAdmin: TestUser;
  let roleId: number;
  let auditId: number;
  const table = "it's";

  /** The URL and a body that would change something, for each state-changing route. */
  function request(method: string, pattern: string): { url: string; payload?: object } {
    const s = encodeURIComponent(target.schema);
    const tableUrl = `/api/sql/${target.database}/${s}/${encodeURIComponent(table)}`;
    const uuid = '00000000-0000-4000-8000-000000000000';
    const url = pattern
      .replace('/api/sql/:db/:schema/:table', tableUrl)
      .replace('/api/admin/:db/:schema/:table', '/api/admin/app/main/roles')
      .replace('/api/admin/roles/:id', `/api/admin/roles/${roleId}`)
      .replace('/api/admin/audit/:id', `/api/admin/audit/${auditId}`)
      .replace(':provider', 'google')
      .replace('/export/:id', `/export/${uuid}`)
      .replace('/api/account/passkeys/:id', '/api/account/passkeys/1')
      .replace(':page', '1');
    const row = kind === 'sqlite' ? { name: 'forged', note: 'x' } : { id: 700, name: 'forged', note: 'x' };
    const bodies: Record<string, object> = {
      'POST /api/setup': { username: 'forged', email: 'f@example.com', password: 'Forged#123x', token: 'x' },
      'POST /api/account/signup': {
        user: { username: 'forged', user_Details: [{ email: 'f@example.com' }] },
        password: 'Forged#123x',
        token: 'x',
      },
      'POST /api/account/login': { username: 'forged', password: TEST_PASSWORD, token: 'x' },
      'POST /api/account': { user_Details: [{ firstName: 'Forged' }] },
      'POST /api/account/updatePassword': { password: 'Forged#123x' },
      'POST /api/account/reauth': { password: TEST_PASSWORD },
      'POST /api/account/preferred2fa': { preferred2fa: 'Email' },
      'POST /api/sql/:db/:schema/:table': row,
      'POST /api/sql/:db/:schema/:table/delete': { id: 1 },
      'POST /api/admin/roles': {
        Id: 0,
        Name: 'Forged',
        Role_Links: [],
        Role_Permissions: [],
        User_Roles: [],
      },
      'POST /api/admin/:db/:schema/:table': { name: 'Forged2' },
      'POST /api/admin/:db/:schema/:table/delete': { id: roleId },
    };
    const payload = bodies[`${method} ${pattern}`] ?? (method === 'DELETE' ? undefined : {});
    return { url, ...(payload ? { payload } : {}) };
  }

  const stateChanging = () =>
    target.t.app.routeTable
      .filter((r) => !SAFE.has(r.method) && isApi(r.url))
      .map((r) => [r.method, r.url] as const);

  const xsrfOf = (headers: Record<string, string>) => headers[XSRF_HEADER] ?? '';

  /** The ways a forged request can carry (or lack) the anti-forgery pair, for the administrator's session. */
  async function forgeries(): Promise<[string, Record<string, string>][]> {
    const bearer = { authorization: admin.headers.authorization ?? '' };
    const own = xsrfOf(admin.headers);
    const [nonce = ''] = own.split('.');
    const anonymous = xsrfOf(await withXsrf(target.t));
    const other = xsrfOf(otherAdmin.headers);
    const pair = (cookie: string, header: string) => ({
      ...bearer,
      cookie: `${XSRF_COOKIE}=${cookie}`,
      [XSRF_HEADER]: header,
    });
    return [
      ['no header, no cookie', bearer],
      ['the cookie only', { ...bearer, cookie: `${XSRF_COOKIE}=${own}` }],
      ['the header only', { ...bearer, [XSRF_HEADER]: own }],
      ['a made-up pair', pair('forged.token', 'forged.token')],
      ['its own nonce with a made-up signature', pair(`${nonce}.AAAA`, `${nonce}.AAAA`)],
      ['a header that differs from the cookie', pair(own, `${own}x`)],
      ["another session's pair", pair(other, other)],
      ['a pair issued before sign-in', pair(anonymous, anonymous)],
      ['an empty pair', pair('', '')],
    ];
  }

  beforeAll(async () => {
    target = await openSecurityTarget(kind);
    admin = target.admin;
    otherAdmin = await buildAdmin(target.t);
    const { t } = target;
    // A role to delete and a data change to undo: the forged calls name real things.
    const role = await t.app.inject({
      method: 'POST',
      url: '/api/admin/roles',
      headers: admin.headers,
      payload: { Id: 0, Name: 'Kept', Role_Links: [], Role_Permissions: [], User_Roles: [] },
    });
    roleId = role.json<{ data: { Id: number } }>().data.Id;
    const note = await t.app.inject({
      method: 'POST',
      url: target.apiPath(target.canary),
      headers: admin.headers,
      payload:
        kind === 'sqlite' ? { name: 'delta', note: 'fourth' } : { id: 4, name: 'delta', note: 'fourth' },
    });
    expect(note.statusCode, note.body).toBe(200);
    const entry = await t.store.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', 'like', 'data.%')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    auditId = entry.id;
    // The canary is the canary again; the audit entry stays to be (not) undone.
    await target.run(`DELETE FROM canary WHERE id = 4`);
  });
  afterAll(async () => {
    if (!target) return;
    await expectHealthy(target);
    await target.close();
  });

  it('covers the state-changing routes the route table has', () => {
    const keys = stateChanging().map(([method, url]) => `${method} ${url}`);
    expect(keys.length).toBeGreaterThan(20);
    expect(keys).toContain('POST /api/sql/:db/:schema/:table');
    expect(keys).toContain('DELETE /api/account/delete');
  });

  it('refuses every state-changing route without the right anti-forgery pair, and nothing changes', async () => {
    const cells: string[] = [];
    for (const [how, headers] of await forgeries()) {
      await expectNoSideEffect(target, async () => {
        for (const [method, pattern] of stateChanging()) {
          const { url, payload } = request(method, pattern);
          const answer = await target.t.app.inject({
            method: method as 'POST',
            url,
            headers,
            ...(payload ? { payload } : {}),
          });
          expectNoLeak(answer);
          const body = answer.json<{ message: string }>();
          if (answer.statusCode !== 403 || body.message !== am.xsrfMissing)
            cells.push(`${method} ${pattern} with ${how}: ${answer.statusCode} ${answer.body.slice(0, 120)}`);
        }
      });
    }
    expect(cells).toEqual([]);
  }, 60_000);

  it('refuses the public routes forged without a session too', async () => {
    const anonymous = xsrfOf(await withXsrf(target.t));
    const signedInPair = xsrfOf(admin.headers);
    const variants: [string, Record<string, string>][] = [
      ['no header', {}],
      ['the cookie only', { cookie: `${XSRF_COOKIE}=${anonymous}` }],
      ['a made-up pair', { cookie: `${XSRF_COOKIE}=forged.x`, [XSRF_HEADER]: 'forged.x' }],
      [
        "a signed-in session's pair",
        { cookie: `${XSRF_COOKIE}=${signedInPair}`, [XSRF_HEADER]: signedInPair },
      ],
    ];
    await expectNoSideEffect(target, async () => {
      for (const [how, headers] of variants) {
        for (const pattern of [
          '/api/setup',
          '/api/account/signup',
          '/api/account/login',
          '/api/account/login/verify',
          '/api/account/login/resend',
          '/api/account/forgotPassword',
          '/api/account/login/passkey/options',
        ]) {
          const { url, payload } = request('POST', pattern);
          const answer = await target.t.app.inject({ method: 'POST', url, headers, payload: payload ?? {} });
          expectNoLeak(answer);
          expect([pattern, how, answer.statusCode, answer.json<{ message: string }>().message]).toEqual([
            pattern,
            how,
            403,
            am.xsrfMissing,
          ]);
        }
      }
    });
  });

  it('changes nothing on a GET without the bearer header, whatever cookie it carries', async () => {
    const cookie = { cookie: `${XSRF_COOKIE}=${xsrfOf(admin.headers)}` };
    await expectNoSideEffect(target, async () => {
      for (const route of target.t.app.routeTable) {
        if (route.method !== 'GET' || !isApi(route.url)) continue;
        const url = request('GET', route.url).url.replace(/:\w+/g, '1');
        const answer = await target.t.app.inject({ method: 'GET', url, headers: cookie });
        expectNoLeak(answer);
        expect(answer.statusCode, `${route.url}: ${answer.body}`).toBeLessThan(500);
      }
    });
    // The administrator's session still works: nothing ended it.
    const verify = await target.t.app.inject({
      method: 'GET',
      url: '/api/account/verify',
      headers: admin.headers,
    });
    expect(verify.statusCode).toBe(200);
  });

  it('lets the same calls through with the right pair (the control)', async () => {
    const { t } = target;
    const call = async (method: string, pattern: string) => {
      const { url, payload } = request(method, pattern);
      return t.app.inject({
        method: method as 'POST',
        url,
        headers: admin.headers,
        ...(payload ? { payload } : {}),
      });
    };
    const inserted = await call('POST', '/api/sql/:db/:schema/:table');
    expect(inserted.statusCode, inserted.body).toBe(200);
    const named = await call('POST', '/api/account');
    expect(named.statusCode, named.body).toBe(200);
    const role = await call('POST', '/api/admin/roles');
    expect(role.statusCode, role.body).toBe(200);
    const forgedRows = await target.run(`SELECT name FROM ${quoteName(kind, table)} WHERE name = 'forged'`);
    expect(forgedRows).toHaveLength(1);
    await target.expectCanaryIntact();
  });
});
