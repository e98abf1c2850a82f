import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreSignIn } from '#common/contract/account.ts';
import { accountApiMessages as am } from '#common/messages.ts';
import { tablePath } from '#common/links.ts';
import { AccountClient } from '#server/test/account-client.ts';
import { TEST_PASSWORD, buildUser, withXsrf, type TestUser } from '#server/test/factories.ts';
import {
  expectHealthy,
  expectNoLeak,
  openSecurityTarget,
  securityEngines,
  type SecurityTarget,
} from './harness.ts';
import { expectNoSideEffect } from './side-effects.ts';

/*
 * Every route × every kind of caller (issue 5's authorization matrix, issue 10's route attack), on a hostile table
 * of each engine. The rows come from the app's own route table: a route added without a rule here fails the first
 * test, so a new route cannot be missed. The rule table is the only hand-written part. "Allowed" means the call got
 * past authorization (any status but 401 and 403); "refused" means 401 for callers without a session (anonymous, or
 * the pre-code key of sign-in step one, which is not a session) and 403 for signed-in ones, with no side effect.
 */

type Kind =
  | 'anonymous'
  | 'preCode' // the pre-sign-in key of POST /api/account/login, sent as a bearer token before the code
  | 'noRoles' // a signed-in user who is not an administrator and has no role
  | 'exactLink'
  | 'prefixLink'
  | 'reader'
  | 'inserter'
  | 'updater'
  | 'deleter'
  | 'admin';
const kinds: Kind[] = [
  'anonymous',
  'preCode',
  'noRoles',
  'exactLink',
  'prefixLink',
  'reader',
  'inserter',
  'updater',
  'deleter',
  'admin',
];
const withoutSession: Kind[] = ['anonymous', 'preCode'];

/** Who may call a route, by the rule that guards it. */
type Rule =
  | 'public' // anyone
  | 'signedIn' // any session
  | 'recentAuth' // a session that proved its password or a code in the last 10 minutes (a fresh sign-in has)
  | 'database' // a link that shows the database
  | 'tableRead' // a link that allows the table
  | 'tableInsert'
  | 'tableUpdate'
  | 'tableDelete'
  | 'admin'
  | 'downloadToken' // no session needed: a single-use token from the export's owner (an invalid one is refused)
  | 'metricsToken'; // no session: the scraper's METRICS_TOKEN (refused without it, 404 when metrics are off)

const rules: Record<string, Rule> = {
  'GET /api/health': 'public',
  'GET /api/health/alive': 'public',
  'GET /api/health/ready': 'public',
  // A scraper's bearer METRICS_TOKEN, never a session; unset here, so 404 for everyone (metrics.db.test.ts: 401, 200).
  'GET /api/metrics': 'metricsToken',
  'GET /api/setup': 'public',
  'POST /api/setup': 'public',
  'GET /api/captcha': 'public',
  'POST /api/account/signup': 'public',
  'POST /api/account/login': 'public',
  'POST /api/account/login/verify': 'public',
  'POST /api/account/login/resend': 'public',
  'POST /api/account/login/link': 'public',
  'POST /api/account/forgotPassword': 'public',
  'GET /api/account/providers': 'public',
  'GET /api/account/login/:provider': 'public',
  'GET /api/account/login/:provider/callback': 'public',
  'POST /api/account/login/passkey/options': 'public',
  'POST /api/account/login/passkey/verify': 'public',
  'GET /api/account/logout': 'public', // signing out without a session is a no-op, not an error
  'POST /api/analytics/events': 'public', // the site's analytics: no session, no cookie, limited per address
  // Titan: anyone may chat; a session answers only the browser holding its HttpOnly cookie (chat tests).
  'POST /api/chat/start': 'public',
  'GET /api/chat/:sessionId': 'public',
  'POST /api/chat/:sessionId/add': 'public',
  'GET /api/account/verify': 'signedIn',
  'GET /api/account': 'signedIn',
  'POST /api/account': 'signedIn',
  'GET /api/account/roles': 'signedIn',
  'POST /api/account/reauth': 'signedIn',
  'POST /api/account/preferred2fa': 'signedIn',
  'GET /api/account/passkeys': 'signedIn',
  'GET /api/sql': 'signedIn',
  'POST /api/contact': 'signedIn',
  // Any signed-in caller gets past authorization; the service then refuses other people's changes (admin tests).
  'POST /api/admin/audit/:id/undo': 'signedIn',
  'DELETE /api/account/delete': 'recentAuth',
  'POST /api/account/updatePassword': 'recentAuth',
  'GET /api/account/eotp/:email': 'recentAuth',
  'GET /api/account/eotp/verify/:code': 'recentAuth',
  'GET /api/account/potp/:phone': 'recentAuth',
  'GET /api/account/potp/verify/:code': 'recentAuth',
  'GET /api/account/totp': 'recentAuth',
  'GET /api/account/totp/verify/:code': 'recentAuth',
  'POST /api/account/recovery-codes': 'recentAuth',
  'POST /api/account/providers/:provider/link': 'recentAuth',
  'DELETE /api/account/providers/:provider': 'recentAuth',
  'POST /api/account/passkeys/register/options': 'recentAuth',
  'POST /api/account/passkeys/register/verify': 'recentAuth',
  'DELETE /api/account/passkeys/:id': 'recentAuth',
  'GET /api/sql/:db': 'database',
  'GET /api/sql/:db/:schema/:table': 'tableRead',
  'GET /api/sql/:db/:schema/:table/foreignkeys': 'tableRead',
  'POST /api/sql/:db/:schema/:table/search': 'tableRead',
  'GET /api/sql/:db/:schema/:table/page/:page': 'tableRead',
  'POST /api/sql/:db/:schema/:table/page/:page/search': 'tableRead',
  'POST /api/sql/:db/:schema/:table/query': 'tableRead',
  'POST /api/sql/:db/:schema/:table/query/plan': 'tableRead',
  'POST /api/sql/:db/:schema/:table/query/export': 'tableRead',
  'POST /api/sql/:db/:schema/:table/export': 'tableRead',
  'GET /api/sql/:db/:schema/:table/export/:id': 'tableRead',
  'DELETE /api/sql/:db/:schema/:table/export/:id': 'tableRead',
  'POST /api/sql/:db/:schema/:table/export/:id/cancel': 'tableRead',
  'POST /api/sql/:db/:schema/:table': 'tableInsert',
  'POST /api/sql/:db/:schema/:table/delete': 'tableDelete',
  // A row's history is read with the table; its undo needs the read first, then the right the change needs (which
  // the entry decides: row-history.db.test.ts covers those refusals).
  'POST /api/sql/:db/:schema/:table/history': 'tableRead',
  // Referenced by (decision 0065): read with the table; other tables are filtered by the same policy.
  'POST /api/sql/:db/:schema/:table/references': 'tableRead',
  'POST /api/sql/:db/:schema/:table/history/:id/undo': 'tableRead',
  // Saved views: read with the table; a change needs the read first, then the view's author or an administrator
  // (views-api.db.test.ts covers those refusals).
  'GET /api/sql/:db/:schema/:table/views': 'tableRead',
  'POST /api/sql/:db/:schema/:table/views': 'tableRead',
  'POST /api/sql/:db/:schema/:table/views/delete': 'tableRead',
  // Bulk changes (decision 0068): a preview or a run of an update needs the update right on the table (a delete's,
  // the delete right: bulk-api.db.test.ts); a job's status and cancel answer its owner only, any other caller the
  // same 404 as for no job, whatever their rights.
  'POST /api/sql/:db/:schema/:table/bulk/preview': 'tableUpdate',
  'POST /api/sql/:db/:schema/:table/bulk': 'tableUpdate',
  'GET /api/sql/:db/:schema/:table/bulk/:id': 'signedIn',
  'POST /api/sql/:db/:schema/:table/bulk/:id/cancel': 'signedIn',
  // Imports (decision 0069): the upload needs the insert right on the table (a run asks again, and an upsert needs
  // the update right too: imports.db.test.ts); every call about an import answers its owner only, any other caller
  // the same 404 as for no import, whatever their rights.
  'POST /api/sql/:db/:schema/:table/import': 'tableInsert',
  'GET /api/sql/:db/:schema/:table/import/:id/preview': 'signedIn',
  'POST /api/sql/:db/:schema/:table/import/:id/run': 'signedIn',
  'GET /api/sql/:db/:schema/:table/import/:id': 'signedIn',
  'POST /api/sql/:db/:schema/:table/import/:id/cancel': 'signedIn',
  'GET /api/sql/:db/:schema/:table/import/:id/report': 'signedIn',
  'GET /api/exports/:id/file': 'downloadToken',
  'GET /api/admin/users': 'admin',
  'GET /api/admin/users/:id': 'admin',
  'POST /api/admin/users/:id/roles': 'admin',
  'POST /api/admin/users/:id/lock': 'admin',
  'POST /api/admin/users/:id/unlock': 'admin',
  'POST /api/admin/users/:id/reset-2fa': 'admin',
  'POST /api/admin/users/:id/end-sessions': 'admin',
  'GET /api/admin/overview': 'admin',
  'GET /api/admin/roles': 'admin',
  'POST /api/admin/roles': 'admin',
  'GET /api/admin/roles/:id': 'admin',
  'DELETE /api/admin/roles/:id': 'admin',
  'GET /api/admin/tables': 'admin',
  'GET /api/admin/audit': 'admin',
  'GET /api/admin/audit/:id/rows': 'admin',
  'GET /api/admin/analytics': 'admin',
  'GET /api/admin/:db/:schema/:table/:id': 'admin',
  'POST /api/admin/:db/:schema/:table': 'admin',
  'POST /api/admin/:db/:schema/:table/delete': 'admin',
  'GET /api/admin/messages': 'admin',
  'GET /api/admin/chats': 'admin',
  'GET /api/admin/chats/:sessionId': 'admin',
  'POST /api/admin/messages/:id/answer': 'admin',
  'POST /api/admin/messages/:id/archive': 'admin',
};

/** Routes outside the API (the web app, the API's own documentation) are public by nature. */
const isDocumentationOrPage = (url: string) => !url.startsWith('/api/') || url.startsWith('/api/docs');

const linked: Kind[] = ['exactLink', 'prefixLink', 'reader', 'inserter', 'updater', 'deleter', 'admin'];
const allowedKinds: Record<Rule, Kind[]> = {
  public: kinds,
  signedIn: kinds.filter((k) => !withoutSession.includes(k)),
  recentAuth: kinds.filter((k) => !withoutSession.includes(k)),
  database: linked,
  tableRead: linked,
  tableInsert: ['inserter', 'admin'],
  tableUpdate: ['updater', 'admin'],
  tableDelete: ['deleter', 'admin'],
  admin: ['admin'],
  downloadToken: [],
  metricsToken: [],
};

/** The table under test: a quote in its name, and unchanged by percent-encoding (so links name it plainly). */
const TABLE = "it's";

describe.each(securityEngines)('every route on %s', (kind) => {
  let target: SecurityTarget;
  const users = new Map<Kind, TestUser | null>();
  let anonymousHeaders: Record<string, string>;
  let preCodeHeaders: Record<string, string>;

  const params = (): Record<string, string> => ({
    db: target.database,
    schema: encodeURIComponent(target.schema),
    table: encodeURIComponent(TABLE),
    id: '00000000-0000-4000-8000-000000000000',
    page: '1',
    provider: 'google',
    email: 'someone@example.com',
    phone: '+15551234567',
    code: '123456',
  });

  function concreteUrl(method: string, pattern: string): string {
    const values = params();
    return (
      pattern.replace(/:(\w+)/g, (_, name: string) => {
        if (name === 'id' && pattern.startsWith('/api/admin/audit')) return '999999';
        if (name === 'id' && pattern.includes('/history/')) return '999999';
        // The user actions name the shared administrator: lock and end-sessions refuse one's own account (400), so
        // the calls that get through change nobody else and leave this file's administrator signed in.
        if (name === 'id' && pattern.startsWith('/api/admin/users/')) return String(target.admin.userId);
        if (name === 'id' && pattern.startsWith('/api/admin/')) return '1';
        if (name === 'id' && pattern.startsWith('/api/account/passkeys')) return '1';
        return values[name] ?? 'x';
      }) + (method === 'GET' && pattern.endsWith('/file') ? '?t=not-a-valid-token' : '')
    );
  }

  function bodyFor(method: string, pattern: string): object | undefined {
    if (method === 'GET' || method === 'DELETE') return undefined;
    // No key: an insert (where the engine needs the key, it answers 400 after authorization).
    if (pattern === '/api/sql/:db/:schema/:table') return { name: 'matrix', note: 'x' };
    // Bodies that pass validation, so authorization is what answers (a new view of no columns; a view that is not).
    if (pattern.endsWith('/views')) return { Id: 0, name: 'matrix', columns: [] };
    if (pattern.endsWith('/views/delete')) return { Id: 999999 };
    // A bulk update of every row whose expected count is wrong: the preview counts, the run answers 409.
    const bulkUpdate = { action: 'update', allRows: true, set: { note: 'matrix' } };
    if (pattern.endsWith('/bulk/preview')) return bulkUpdate;
    if (pattern.endsWith('/bulk')) return { ...bulkUpdate, expectedCount: 999999 };
    // A dry run of an import that does not exist: 404 for whoever gets past authorization.
    if (pattern.endsWith('/import/:id/run')) return { mapping: { a: 'note' }, mode: 'insert', dryRun: true };
    if (pattern.endsWith('/delete') && pattern.startsWith('/api/sql')) return { id: 1 };
    return {};
  }

  const headersOf = (who: Kind) =>
    who === 'anonymous'
      ? anonymousHeaders
      : who === 'preCode'
        ? preCodeHeaders
        : (users.get(who)?.headers ?? {});

  const call = (key: string, who: Kind) => {
    const [method = 'GET', pattern = ''] = key.split(' ');
    const body = bodyFor(method, pattern);
    return target.t.app.inject({
      method: method as 'GET',
      url: concreteUrl(method, pattern),
      headers: headersOf(who),
      ...(body ? { payload: body } : {}),
    });
  };

  beforeAll(async () => {
    target = await openSecurityTarget(kind);
    const { t } = target;
    // TableIds as the administration API names them (the one source of the format).
    const tables = await t.app.inject({
      method: 'GET',
      url: '/api/admin/tables',
      headers: target.admin.headers,
    });
    const tableId = tables
      .json<{ data: { TableId: string; name: string }[] }>()
      .data.find((entry) => entry.name === TABLE)?.TableId;
    if (!tableId) throw new Error(`no TableId for ${TABLE}`);
    const db = `/db/${target.database}/*`;
    users.set('anonymous', null);
    users.set('preCode', null);
    users.set('noRoles', await buildUser(t));
    users.set('exactLink', await buildUser(t, { links: [tablePath(target.database, target.schema, TABLE)] }));
    users.set('prefixLink', await buildUser(t, { links: [db] }));
    users.set('reader', await buildUser(t, { links: ['/db/*'] }));
    users.set(
      'inserter',
      await buildUser(t, { links: [db], permissions: [{ table: tableId, canInsert: true }] }),
    );
    users.set(
      'updater',
      await buildUser(t, { links: [db], permissions: [{ table: tableId, canUpdate: true }] }),
    );
    users.set(
      'deleter',
      await buildUser(t, { links: [db], permissions: [{ table: tableId, canDelete: true }] }),
    );
    users.set('admin', target.admin);
    anonymousHeaders = await withXsrf(t);

    // Sign-in step one of a real user: the answer's key, sent as if it were a session token.
    const victim = await buildUser(t, { links: ['/db/*'], isAdmin: true });
    const browser = new AccountClient(t);
    const login = await browser.post<PreSignIn>('/api/account/login', {
      username: victim.username,
      password: TEST_PASSWORD,
      token: await browser.humanCheck(),
    });
    expect(login.status, login.message ?? '').toBe(200);
    browser.token = login.data.key;
    preCodeHeaders = browser.headers();
  });
  afterAll(async () => {
    if (!target) return;
    await expectHealthy(target);
    await target.expectCanaryIntact();
    await target.close();
  });

  it('has a rule for every API route, and no rule without a route', () => {
    const routes = target.t.app.routeTable;
    const missing = routes
      .filter((r) => !isDocumentationOrPage(r.url))
      .map((r) => `${r.method} ${r.url}`)
      .filter((key) => !(key in rules));
    expect(missing, 'add these routes to the rule table').toEqual([]);
    const stale = Object.keys(rules).filter((key) => !routes.some((r) => `${r.method} ${r.url}` === key));
    expect(stale, 'these rules name no route').toEqual([]);
  });

  it('refuses every caller a route does not allow, changing nothing and leaking nothing', async () => {
    const cells: string[] = [];
    for (const who of kinds) {
      const refused = Object.entries(rules).filter(([, rule]) => !allowedKinds[rule].includes(who));
      // A signed-in caller's refusals of data calls are audited (access.denied): that is their one effect.
      const except = withoutSession.includes(who) ? [] : (['audit_log'] as const);
      await expectNoSideEffect(
        target,
        async () => {
          for (const [key, rule] of refused) {
            const answer = await call(key, who);
            expectNoLeak(answer);
            const got = answer.statusCode;
            const ok =
              rule === 'downloadToken' || rule === 'metricsToken'
                ? got >= 400 && got < 500
                : got === (withoutSession.includes(who) ? 401 : 403);
            if (!ok)
              cells.push(`${key} as ${who}: expected refusal, got ${got} ${answer.body.slice(0, 120)}`);
            else if (withoutSession.includes(who) && rule !== 'downloadToken' && rule !== 'metricsToken')
              expect(answer.json<{ message: string }>().message, key).toBe(am.signInRequired);
          }
        },
        { except: [...except] },
      );
    }
    expect(cells).toEqual([]);
  }, 120_000);

  it('lets exactly the right callers through every route', async () => {
    const cells: string[] = [];
    // Account deletion and logout end the caller's session: they run last (logout is public, so it still passes).
    const last = (key: string) =>
      key.endsWith('/account/logout') ? 2 : key.endsWith('/account/delete') ? 1 : 0;
    const ordered = Object.entries(rules).sort(([a], [b]) => last(a) - last(b));
    for (const [key, rule] of ordered) {
      for (const who of allowedKinds[rule]) {
        // The administrator is shared with the rest of this file: it is not deleted or signed out here.
        if (who === 'admin' && last(key) > 0) continue;
        const answer = await call(key, who);
        expectNoLeak(answer);
        if (answer.statusCode === 401 || answer.statusCode === 403)
          cells.push(
            `${key} as ${who}: expected to pass authorization, got ${answer.statusCode} ${answer.body}`,
          );
      }
    }
    expect(cells).toEqual([]);
  }, 120_000);

  it('asks for the password again on recent-auth routes once the sign-in is over 10 minutes old', async () => {
    const user = await buildUser(target.t);
    const { clock } = target.t;
    clock.advance(11 * 60 * 1000);
    try {
      for (const [key, rule] of Object.entries(rules)) {
        if (rule !== 'recentAuth') continue;
        const [method = 'GET', pattern = ''] = key.split(' ');
        const body = bodyFor(method, pattern);
        const answer = await target.t.app.inject({
          method: method as 'GET',
          url: concreteUrl(method, pattern),
          headers: user.headers,
          ...(body ? { payload: body } : {}),
        });
        expect([key, answer.statusCode, answer.json().message]).toEqual([key, 403, am.reauthRequired]);
      }
    } finally {
      clock.advance(-11 * 60 * 1000);
    }
  });

  it('refuses a table outside the links exactly like a table that does not exist', async () => {
    const exact = await buildUser(target.t, { links: [tablePath(target.database, target.schema, TABLE)] });
    const read = (table: string) =>
      target.t.app.inject({ method: 'GET', url: target.apiPath(table, '/page/1'), headers: exact.headers });
    const other = await read(target.canary);
    const missing = await read('nothing here');
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual(missing.json());
  });
});
