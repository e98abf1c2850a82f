import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '#server/engines/connect.ts';
import { buildAdmin, buildUser, withXsrf, type TestUser } from '#server/test/factories.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';

/*
 * The authorization matrix (issue 5): every route of the app × every kind of user → allowed or refused, with the
 * expected status. The rows come from the app's own route table, so a route added without a row here fails the
 * test. "Allowed" means the call got past authorization (any status but 401 and 403); "refused" means 401 for
 * anonymous callers and 403 for signed-in ones.
 */

type Kind =
  | 'anonymous'
  | 'noRoles'
  | 'exactLink'
  | 'prefixLink'
  | 'reader'
  | 'inserter'
  | 'updater'
  | 'deleter'
  | 'admin';
const kinds: Kind[] = [
  'anonymous',
  'noRoles',
  'exactLink',
  'prefixLink',
  'reader',
  'inserter',
  'updater',
  'deleter',
  'admin',
];

/** Who may call a route, by the rule that guards it. */
type Rule =
  | 'public' // anyone
  | 'signedIn' // any session
  | 'recentAuth' // a session that proved its password or a code in the last 10 minutes (a fresh sign-in has)
  | 'database' // a link that shows the database
  | 'tableRead' // a link that allows the table
  | 'tableInsert'
  | 'tableDelete'
  | 'admin'
  | 'downloadToken'; // no session: a single-use token from the export's owner (an invalid one is refused)

const rules: Record<string, Rule> = {
  'GET /api/health': 'public',
  'GET /api/setup': 'public',
  'POST /api/setup': 'public',
  'GET /api/captcha': 'public',
  'POST /api/account/signup': 'public',
  'POST /api/account/login': 'public',
  'POST /api/account/login/verify': 'public',
  'POST /api/account/login/resend': 'public',
  'POST /api/account/forgotPassword': 'public',
  'GET /api/account/providers': 'public',
  'GET /api/account/login/:provider': 'public',
  'GET /api/account/login/:provider/callback': 'public',
  'POST /api/account/login/passkey/options': 'public',
  'POST /api/account/login/passkey/verify': 'public',
  'GET /api/account/verify': 'signedIn',
  'GET /api/account': 'signedIn',
  'POST /api/account': 'signedIn',
  'GET /api/account/roles': 'signedIn',
  'GET /api/account/logout': 'public', // signing out without a session is a no-op, not an error
  'POST /api/account/reauth': 'signedIn',
  'POST /api/account/preferred2fa': 'signedIn',
  'GET /api/account/passkeys': 'signedIn',
  'GET /api/sql': 'signedIn',
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
  'POST /api/sql/:db/:schema/:table/export': 'tableRead',
  'GET /api/sql/:db/:schema/:table/export/:id': 'tableRead',
  'DELETE /api/sql/:db/:schema/:table/export/:id': 'tableRead',
  'POST /api/sql/:db/:schema/:table/export/:id/cancel': 'tableRead',
  'POST /api/sql/:db/:schema/:table': 'tableInsert',
  'POST /api/sql/:db/:schema/:table/delete': 'tableDelete',
  'GET /api/exports/:id/file': 'downloadToken',
  'GET /api/admin/users': 'admin',
  'GET /api/admin/roles': 'admin',
  'POST /api/admin/roles': 'admin',
  'GET /api/admin/roles/:id': 'admin',
  'DELETE /api/admin/roles/:id': 'admin',
  'GET /api/admin/tables': 'admin',
  'GET /api/admin/audit': 'admin',
  // Any signed-in caller gets past authorization; the service then refuses other people's changes (admin tests).
  'POST /api/admin/audit/:id/undo': 'signedIn',
  'GET /api/admin/:db/:schema/:table/:id': 'admin',
  'POST /api/admin/:db/:schema/:table': 'admin',
  'POST /api/admin/:db/:schema/:table/delete': 'admin',
};

/** Routes outside the API (the web app, the API's own documentation) are public by nature. */
const isDocumentationOrPage = (url: string) => !url.startsWith('/api/') || url.startsWith('/api/docs');

const allowedKinds: Record<Rule, Kind[]> = {
  public: kinds,
  signedIn: kinds.filter((k) => k !== 'anonymous'),
  recentAuth: kinds.filter((k) => k !== 'anonymous'),
  database: ['exactLink', 'prefixLink', 'reader', 'inserter', 'updater', 'deleter', 'admin'],
  tableRead: ['exactLink', 'prefixLink', 'reader', 'inserter', 'updater', 'deleter', 'admin'],
  tableInsert: ['inserter', 'admin'],
  tableDelete: ['deleter', 'admin'],
  admin: ['admin'],
  downloadToken: [],
};

const params: Record<string, string> = {
  db: 'shop',
  schema: 'main',
  table: 'orders',
  id: '00000000-0000-4000-8000-000000000000',
  page: '1',
  provider: 'google',
  email: 'someone@example.com',
  phone: '+15551234567',
  code: '123456',
};

function concreteUrl(method: string, pattern: string): string {
  return (
    pattern.replace(/:(\w+)/g, (_, name: string) => {
      if (name === 'id' && pattern.startsWith('/api/admin/audit')) return '999999';
      if (name === 'id' && pattern.startsWith('/api/admin/')) return '1';
      if (name === 'id' && pattern.startsWith('/api/account/passkeys')) return '1';
      return params[name] ?? 'x';
    }) + (method === 'GET' && pattern.endsWith('/file') ? '?t=not-a-valid-token' : '')
  );
}

function bodyFor(method: string, pattern: string): object | undefined {
  if (method === 'GET' || method === 'DELETE') return undefined;
  if (pattern === '/api/sql/:db/:schema/:table') return { customer: 'matrix' };
  if (pattern.endsWith('/delete') && pattern.startsWith('/api/sql')) return { id: 1 };
  return {};
}

describe('the authorization matrix', () => {
  const dir = tempDir();
  let t: TestApp;
  const users = new Map<Kind, TestUser | null>();

  beforeAll(async () => {
    const file = path.join(dir.path, 'shop.db');
    const db = new SQLite(file);
    db.exec(`create table orders (id integer primary key, customer varchar(50));
      with recursive n(i) as (select 1 union all select i + 1 from n where i < 50)
      insert into orders (customer) select 'c' || i from n;`);
    db.close();
    t = await buildTestApp({ databases: [await connectDatabase('shop', 'sqlite', `sqlite:${file}`)] });
    const orders = 'shop/main/orders';
    users.set('anonymous', null);
    users.set('noRoles', await buildUser(t));
    users.set('exactLink', await buildUser(t, { links: ['/db/shop/main/orders'] }));
    users.set('prefixLink', await buildUser(t, { links: ['/db/shop/*'] }));
    users.set('reader', await buildUser(t, { links: ['/db/*'] }));
    users.set(
      'inserter',
      await buildUser(t, { links: ['/db/shop/*'], permissions: [{ table: orders, canInsert: true }] }),
    );
    users.set(
      'updater',
      await buildUser(t, { links: ['/db/shop/*'], permissions: [{ table: orders, canUpdate: true }] }),
    );
    users.set(
      'deleter',
      await buildUser(t, { links: ['/db/shop/*'], permissions: [{ table: orders, canDelete: true }] }),
    );
    users.set('admin', await buildAdmin(t));
  });
  afterAll(async () => {
    await t.close();
    dir.remove();
  });

  it('has a rule for every API route', () => {
    const missing = t.app.routeTable
      .filter((r) => !isDocumentationOrPage(r.url))
      .map((r) => `${r.method} ${r.url}`)
      .filter((key) => !(key in rules));
    expect(missing, 'add these routes to the matrix').toEqual([]);
    const stale = Object.keys(rules).filter(
      (key) => !t.app.routeTable.some((r) => `${r.method} ${r.url}` === key),
    );
    expect(stale, 'these matrix rows name no route').toEqual([]);
  });

  it('refuses a table outside the links exactly like a table that does not exist', async () => {
    const exact = await buildUser(t, { links: ['/db/shop/main/orders'] });
    const other = await t.app.inject({
      method: 'GET',
      url: '/api/sql/shop/main/secrets/page/1',
      headers: exact.headers,
    });
    const missing = await t.app.inject({
      method: 'GET',
      url: '/api/sql/shop/main/nothing/page/1',
      headers: exact.headers,
    });
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual(missing.json());
  });

  it('asks for the password again on recent-auth routes once the sign-in is over 10 minutes old', async () => {
    const user = await buildUser(t);
    t.clock.advance(11 * 60 * 1000);
    try {
      for (const [key, rule] of Object.entries(rules)) {
        if (rule !== 'recentAuth') continue;
        const [method = 'GET', pattern = ''] = key.split(' ');
        const body = bodyFor(method, pattern);
        const answer = await t.app.inject({
          method: method as 'GET',
          url: concreteUrl(method, pattern),
          headers: user.headers,
          ...(body ? { payload: body } : {}),
        });
        expect([key, answer.statusCode, answer.json().message]).toEqual([
          key,
          403,
          'Confirm your password to continue.',
        ]);
      }
    } finally {
      t.clock.advance(-11 * 60 * 1000);
    }
  });

  it('lets exactly the right users through every route', async () => {
    const anonymousHeaders = await withXsrf(t);
    const cells: string[] = [];
    // Account deletion and logout end the caller's session: they run last (logout is public, so it still passes).
    const last = (key: string) =>
      key.endsWith('/account/logout') ? 2 : key.endsWith('/account/delete') ? 1 : 0;
    const ordered = Object.entries(rules).sort(([a], [b]) => last(a) - last(b));
    for (const [key, rule] of ordered) {
      const [method = 'GET', pattern = ''] = key.split(' ');
      for (const kind of kinds) {
        const user = users.get(kind) ?? null;
        const body = bodyFor(method, pattern);
        const answer = await t.app.inject({
          method: method as 'GET',
          url: concreteUrl(method, pattern),
          headers: user?.headers ?? anonymousHeaders,
          ...(body ? { payload: body } : {}),
        });
        const allowed = allowedKinds[rule].includes(kind);
        const got = answer.statusCode;
        const ok = allowed
          ? got !== 401 && got !== 403
          : rule === 'downloadToken'
            ? got >= 400 && got < 500
            : got === (kind === 'anonymous' ? 401 : 403);
        if (!ok)
          cells.push(
            `${key} as ${kind}: expected ${allowed ? 'to pass authorization' : kind === 'anonymous' ? 401 : 403}, got ${got} ${answer.body.slice(0, 120)}`,
          );
      }
    }
    expect(cells).toEqual([]);
  }, 120_000);
});
