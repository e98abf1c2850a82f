import { randomBytes } from 'node:crypto';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreSignIn, Verification } from '#common/contract/account.ts';
import type { ChatReply, ChatSession } from '#common/contract/chat.ts';
import type { ExportStatus } from '#common/contract/exports.ts';
import { encodeBody, type PageResult } from '#common/contract/sql.ts';
import { accountApiMessages as am, accountMessages as m } from '#common/messages.ts';
import { connectDatabase } from '#server/engines/connect.ts';
import { CHAT_COOKIE } from '#server/features/chat/chat-service.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import { prepareFirstAdministrator } from '#server/features/setup/service.ts';
import { loadSecretKey, secretBox } from '#server/crypto/secret-box.ts';
import { exportJobTuning } from '#server/jobs/export-job.ts';
import { migrations } from '#server/store/migrations/index.ts';
import { buildAdmin, buildUser, TEST_PASSWORD, type TestUser } from '#server/test/factories.ts';
import { startMailSink, type MailSink } from '#server/test/mail-sink.ts';
import { createPostgresDatabase, type TestDatabase } from '#server/test/server-databases.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';

/*
 * Issue 18's proof: two DBUI instances listening on two loopback ports, as behind nginx, sharing a fresh PostgreSQL
 * app store, Redis and one export folder (EXPORT_DIR), each with a data folder of its own. Every call is real HTTP
 * (fetch), and each scenario makes its calls through both instances: what one instance does, the other sees.
 *
 * Parallel tests share Redis: the queue and the catalog channel are named from this app store (unique), and the
 * rate-limit counts (keyed by address) are kept apart by giving each scenario client addresses of its own through
 * X-Forwarded-For, which the instances believe from 127.0.0.1 (TRUST_PROXY), as they would nginx's.
 */

const REDIS_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';
const SECRET_KEY = 'two-instances-secret-key-0123456789abcdef';
const ADMIN = { username: 'chief', password: 'Chief#12345', email: 'chief@example.com' };
/** Sign-in calls a minute from one address: small, so the test can exceed it. */
const SIGN_IN_LIMIT = 4;
/** Rows of the exported table: enough for several progress reads at the tuned pace. */
const ROWS = 100_000;

interface Instance {
  name: string;
  t: TestApp;
  base: string;
}

interface Reply<T = unknown> {
  status: number;
  isSuccess: boolean;
  data: T;
  message: string | null;
  text: string;
  headers: Headers;
}

/** A client address of its own (10.x.y.z), so rate limits counted by address never meet another test's. */
const newAddress = () => `10.${[...randomBytes(3)].join('.')}`;

/** One HTTP call to an instance. */
async function call<T = unknown>(
  instance: Instance,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  options: { headers?: Record<string, string>; body?: unknown; text?: string } = {},
): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.text !== undefined) {
    body = options.text;
    headers['content-type'] = 'text/plain';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(`${instance.base}${url}`, { method, headers, ...(body ? { body } : {}) });
  const text = await response.text();
  const json = (response.headers.get('content-type') ?? '').startsWith('application/json')
    ? (JSON.parse(text) as { isSuccess?: boolean; data?: T; message?: string | null })
    : {};
  return {
    status: response.status,
    isSuccess: json.isSuccess ?? false,
    data: json.data as T,
    message: json.message ?? null,
    text,
    headers: response.headers,
  };
}

/**
 * A browser behind the balancer: one client address, the cookies the last answers set (whichever instance set
 * them: the XSRF token, Titan's chat cookie), the XSRF header from its cookie and, once signed in, the bearer
 * token; any call may go to either instance.
 */
class Browser {
  token: string | null = null;
  readonly cookies = new Map<string, string>();
  constructor(readonly address = newAddress()) {}

  get xsrf(): string | undefined {
    return this.cookies.get('XSRF-TOKEN');
  }

  headers(): Record<string, string> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    return {
      'x-forwarded-for': this.address,
      ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
      ...(cookie ? { cookie } : {}),
      ...(this.xsrf ? { 'x-xsrf-token': this.xsrf } : {}),
    };
  }

  async call<T = unknown>(
    instance: Instance,
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    body?: unknown,
  ): Promise<Reply<T>> {
    if (method !== 'GET' && !this.xsrf) await this.call(instance, 'GET', '/api/captcha');
    const reply = await call<T>(instance, method, url, {
      headers: this.headers(),
      ...(body === undefined ? {} : { body }),
    });
    for (const cookie of reply.headers.getSetCookie()) {
      const [, name, value] = /^([^=;\s]+)=([^;]*)/.exec(cookie) ?? [];
      if (name && value) this.cookies.set(name, value);
      else if (name) this.cookies.delete(name);
    }
    return reply;
  }

  /** Solves the human check the way the ALTCHA widget does, with a challenge from `instance`. */
  async humanCheck(instance: Instance): Promise<string> {
    const challenge = JSON.parse((await this.call(instance, 'GET', '/api/captcha')).text) as Parameters<
      typeof solveChallenge
    >[0]['challenge'];
    const solution = await solveChallenge({ challenge, deriveKey });
    if (!solution) throw new Error('the test could not solve the human check');
    return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
  }

  async login(instance: Instance, username: string, password: string, token?: string) {
    return this.call<PreSignIn>(instance, 'POST', '/api/account/login', {
      username,
      password,
      token: token ?? (await this.humanCheck(instance)),
    });
  }
}

/** Calls as a factory user (its bearer and XSRF pair), from an address of its own. */
function as(user: TestUser, address = newAddress()) {
  return <T = unknown>(
    instance: Instance,
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    options: { body?: unknown; text?: string } = {},
  ) =>
    call<T>(instance, method, url, { ...options, headers: { ...user.headers, 'x-forwarded-for': address } });
}

describe('two DBUI instances behind one address, sharing PostgreSQL, Redis and EXPORT_DIR', () => {
  let appStore: TestDatabase;
  let browsed: TestDatabase;
  let sink: MailSink;
  const exportDir = tempDir('dbui-shared-exports-');
  const engines: DatabaseEngine[] = [];
  let a: Instance;
  let b: Instance;
  let admin: TestUser;
  let reader: TestUser;
  const tuning = { ...exportJobTuning };

  async function bigDatabase(): Promise<DatabaseEngine> {
    const engine = await connectDatabase('big', 'postgres', browsed.url, {
      statementTimeoutMs: 10_000,
      poolSize: 4,
    });
    engines.push(engine);
    return engine;
  }

  /** One instance as main.ts starts it: migrations, the app, listening, then the first administrator. */
  async function startInstance(name: string): Promise<Instance> {
    const t = await buildTestApp({
      env: {
        APP_DB_URL: appStore.url,
        REDIS_URL,
        SECRET_KEY,
        EXPORT_DIR: exportDir.path,
        SMTP_URL: sink.url,
        TRUST_PROXY: '127.0.0.1',
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
        ADMIN_EMAIL: ADMIN.email,
      },
      databases: [await bigDatabase()],
      rateLimits: { signIn: SIGN_IN_LIMIT },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const base = `http://127.0.0.1:${port}`;
    await prepareFirstAdministrator(t.store, t.config.admin, t.app.log, secretBox(loadSecretKey(t.config)));
    return { name, t, base };
  }

  beforeAll(async () => {
    [appStore, browsed, sink] = await Promise.all([
      createPostgresDatabase('dbui_scale_store'),
      createPostgresDatabase('dbui_scale_big'),
      startMailSink(),
    ]);
    const seed = await connectDatabase('seed', 'postgres', browsed.url);
    await sql`create table big_rows (id bigint primary key, name text not null, note text)`.execute(seed.db);
    await sql`insert into big_rows select g, md5(g::text), 'note ' || g from generate_series(1, ${ROWS}) g`.execute(
      seed.db,
    );
    await sql`create table paged (id integer primary key, label text not null)`.execute(seed.db);
    await sql`insert into paged select g, 'row ' || g from generate_series(1, 50) g`.execute(seed.db);
    await sql`analyze`.execute(seed.db);
    await seed.close();
    // Progress every 25 ms in chunks of 200 rows, so the export runs long enough to be watched.
    exportJobTuning.progressIntervalMs = 25;
    exportJobTuning.chunkSize = 200;

    // Both at once against the empty app store.
    [a, b] = await Promise.all([startInstance('A'), startInstance('B')]);
    admin = await buildAdmin(a.t);
    reader = await buildUser(a.t, { links: ['/db/big', '/db/big/*'] });
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled([a?.t.close(), b?.t.close()]);
    await Promise.allSettled(engines.map((engine) => engine.close()));
    Object.assign(exportJobTuning, tuning);
    await Promise.allSettled([appStore?.drop(), browsed?.drop(), sink?.close()]);
    exportDir.remove();
  });

  it('started together on an empty app store: migrated once, one administrator, both serving', async () => {
    // The lock itself (one instance runs the migrations, the others wait) is proven step by step in
    // server/features/setup/concurrent-migrations.db.test.ts; here two whole apps started at once and both serve.
    const db = a.t.store.db;
    const recorded = await db
      .selectFrom('dbui_migrations' as never)
      .select('name' as never)
      .execute();
    expect(recorded).toHaveLength(Object.keys(migrations).length);
    const admins = await db
      .selectFrom('users')
      .select('username')
      .where('username', '=', ADMIN.username)
      .execute();
    expect(admins).toHaveLength(1);
    const created = await db
      .selectFrom('audit_log')
      .select('action')
      .where('action', '=', 'setup.admin-from-environment')
      .execute();
    expect(created).toHaveLength(1);
    for (const instance of [a, b]) {
      const ready = await call<{ ready: boolean; redis: string }>(instance, 'GET', '/api/health/ready');
      expect(ready.status, `${instance.name}: ${ready.text}`).toBe(200);
      expect(ready.data).toMatchObject({ ready: true, appStore: 'up', redis: 'up' });
    }
    expect(a.base).not.toBe(b.base);
  });

  it('a code sent by one instance is accepted by the other; the session works on both and ends on both', async () => {
    const user = await buildUser(a.t);
    const email = `${user.username}@example.com`;
    const browser = new Browser();
    const token = await browser.humanCheck(a);
    const started = await browser.login(a, user.username, TEST_PASSWORD, token);
    expect(started.status, started.text).toBe(200);
    const code = await sink.nextCode(email);
    // The human check's solution was claimed on A: B refuses it.
    const replayed = await browser.login(b, user.username, TEST_PASSWORD, token);
    expect(replayed.status).toBe(400);
    expect(replayed.message).toBe(am.humanCheckFailed);
    // The resend lock set by A's send holds on B.
    const resend = await browser.call(b, 'POST', '/api/account/login/resend', {
      key: started.data.key,
      selected2fa: 'Email',
    });
    expect(resend.status).toBe(429);
    expect(resend.message).toMatch(/^Please wait (59|60) seconds before resending OTP\.$/);

    const verified = await browser.call<Verification>(b, 'POST', '/api/account/login/verify', {
      key: started.data.key,
      otp: code,
      selected2fa: 'Email',
    });
    expect(verified.status, verified.text).toBe(200);
    browser.token = verified.data.token;
    for (const instance of [a, b, a]) {
      const me = await browser.call<{ user: { username: string } }>(instance, 'GET', '/api/account/verify');
      expect(me.status, `${instance.name}: ${me.text}`).toBe(200);
      expect(me.data.user.username).toBe(user.username);
    }

    expect((await browser.call(a, 'GET', '/api/account/logout')).status).toBe(200);
    for (const instance of [b, a]) {
      const after = await browser.call(instance, 'GET', '/api/account/verify');
      expect(after.status, instance.name).toBe(401);
      expect(after.message).toBe(am.signInRequired);
    }
  });

  it('rate limits count calls to both instances together', async () => {
    const browser = new Browser();
    for (let i = 0; i < SIGN_IN_LIMIT; i++) {
      const attempt = await browser.login(i % 2 ? b : a, 'nobodyhere', 'Wrong#Pass1');
      expect(attempt.status, `call ${i + 1}: ${attempt.text}`).toBe(401);
    }
    for (const instance of [a, b]) {
      const refused = await browser.login(instance, 'nobodyhere', 'Wrong#Pass1');
      expect(refused.status, instance.name).toBe(429);
      expect(refused.message).toMatch(/^Too many attempts from your address\. Please wait \d+ seconds/);
    }
    // Another address is counted apart.
    const other = await new Browser().login(b, 'nobodyhere', 'Wrong#Pass1');
    expect(other.status).toBe(401);
  });

  it('a lockout made through one instance holds on the other', async () => {
    const user = await buildUser(a.t);
    // Five wrong passwords, alternating instances (and from two addresses: the lockout is the account's).
    const first = new Browser();
    const second = new Browser();
    for (let i = 0; i < 5; i++) {
      const wrong = await (i < 3 ? first : second).login(i % 2 ? b : a, user.username, 'Wrong#Pass1');
      expect(wrong.status).toBe(401);
      expect(wrong.message).toBe(m.loginFailed);
    }
    const third = new Browser();
    for (const instance of [b, a]) {
      const right = await third.login(instance, user.username, TEST_PASSWORD);
      expect(right.status, instance.name).toBe(401);
      expect(right.message).toBe(m.loginFailed);
    }
    const locks = await a.t.store.db
      .selectFrom('audit_log')
      .select('action')
      .where('user_id', '=', user.userId)
      .where('action', '=', 'account.locked')
      .execute();
    expect(locks).toHaveLength(1);
  });

  it('an export started on one instance reports progress and downloads through the other', async () => {
    const reader$ = as(reader);
    const tableUrl = '/api/sql/big/public/big_rows';
    const started = await reader$<{ id: string }>(
      a,
      'POST',
      `${tableUrl}/export?format=jsonl&orderBy=-name`,
      {
        text: encodeBody({}),
      },
    );
    expect(started.status, started.text).toBe(202);
    const id = started.data.id;

    // Read through B while it runs: progress that moves, then done.
    const reads: ExportStatus[] = [];
    const until = Date.now() + 30_000;
    for (;;) {
      const status = await reader$<ExportStatus>(b, 'GET', `${tableUrl}/export/${id}`);
      expect(status.status, status.text).toBe(200);
      reads.push(status.data);
      if (!status.data.inProgress) break;
      if (Date.now() > until) throw new Error(`the export did not end: ${status.text}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const running = reads.filter((r) => r.state === 'running' && r.rowsWritten > 0);
    expect(running.length, JSON.stringify(reads.map((r) => [r.state, r.rowsWritten]))).toBeGreaterThan(0);
    const written = running.map((r) => r.rowsWritten);
    expect([...written].sort((x, y) => x - y)).toEqual(written);
    expect(reads.at(-1)).toMatchObject({ state: 'done', percentageCompleted: 100, rowsWritten: ROWS });

    // Whichever instance's worker wrote the file, each instance serves it (from EXPORT_DIR), with a link from the
    // other: one of these two downloads is necessarily served by the instance that did not write it.
    const bodies: string[] = [];
    for (const [linkFrom, downloadFrom] of [
      [a, b],
      [b, a],
    ] as const) {
      const status = await reader$<ExportStatus>(linkFrom, 'GET', `${tableUrl}/export/${id}`);
      expect(status.data.url).toMatch(new RegExp(`^/api/exports/${id}/file\\?t=`));
      const file = await call(downloadFrom, 'GET', status.data.url!);
      expect(file.status, `${downloadFrom.name}: ${file.text.slice(0, 200)}`).toBe(200);
      expect(file.headers.get('content-disposition')).toMatch(
        /^attachment; filename="big_rows-\d{8}-\d{6}\.jsonl"/,
      );
      bodies.push(file.text);
    }
    expect(bodies[1]).toBe(bodies[0]);
    const lines = bodies[0]!.trimEnd().split('\n');
    expect(lines).toHaveLength(ROWS);
    const [top, second] = lines.slice(0, 2).map((line) => JSON.parse(line) as { name: string });
    expect(Object.keys(top!)).toEqual(['id', 'name', 'note']);
    expect(top!.name > second!.name).toBe(true);
  });

  it('a role change made on one instance counts at the next call on the other', async () => {
    const reader$ = as(reader);
    const admin$ = as(admin);
    const tables = async (instance: Instance) => {
      const answer = await reader$<{ name: string }[]>(instance, 'GET', '/api/sql/big');
      return answer.status === 200 ? answer.data.map((t) => t.name) : answer.status;
    };
    // Both instances have the reader's rights cached.
    expect(await tables(a)).toEqual(['big_rows', 'paged']);
    expect(await tables(b)).toEqual(['big_rows', 'paged']);
    const { role_id: ownRole } = await a.t.store.db
      .selectFrom('user_roles')
      .select('role_id')
      .where('user_id', '=', reader.userId)
      .executeTakeFirstOrThrow();

    const removed = await admin$(a, 'POST', `/api/admin/users/${reader.userId}/roles`, {
      body: { roleIds: [] },
    });
    expect(removed.status, removed.text).toBe(200);
    expect(await tables(b)).toBe(403);
    expect(await tables(a)).toBe(403);

    const restored = await admin$(b, 'POST', `/api/admin/users/${reader.userId}/roles`, {
      body: { roleIds: [ownRole] },
    });
    expect(restored.status, restored.text).toBe(200);
    expect(await tables(a)).toEqual(['big_rows', 'paged']);
  });

  it('Next with the page cursor from one instance continues on the other, by seeking', async () => {
    const reader$ = as(reader);
    const page = (instance: Instance, n: number, cursor?: string) =>
      reader$<PageResult>(
        instance,
        'GET',
        `/api/sql/big/public/paged/page/${n}?pageSize=20&orderBy=id${cursor ? `&cursor=${cursor}` : ''}`,
      );
    const ids = (reply: Reply<PageResult>) => {
      expect(reply.status, reply.text).toBe(200);
      return reply.data.results.map((row) => Number(row.id));
    };
    const from = (start: number) => Array.from({ length: 20 }, (_, i) => start + i);
    const first = await page(a, 1);
    expect(ids(first)).toEqual(from(1));
    expect(first.data.cursor).toMatch(/^[\w-]+\.[\w-]{43}$/);

    // A row of page 1 goes: read by number, page 2 would shift by one; sought after page 1's last row, it does not.
    await sql`delete from paged where id = 3`.execute(engines[0]!.db);
    const next = await page(b, 2, first.data.cursor!);
    expect(ids(next)).toEqual(from(21));
    expect(ids(await page(b, 2))).toEqual(from(22));
    // And Previous on A with B's cursor: the rows before page 2's first one (19 now that one is gone).
    expect(ids(await page(a, 1, next.data.cursor!))).toEqual([1, 2, ...from(4).slice(0, 17)]);
    // The cursor is checked, not ignored: a changed one is refused.
    const forged = `${first.data.cursor!.slice(0, -3)}${first.data.cursor!.endsWith('AAA') ? 'BBB' : 'AAA'}`;
    expect((await page(b, 2, forged)).status).toBe(400);
  });

  it('a chat started on one instance goes on through the other, for its browser only', async () => {
    const visitor = new Browser();
    const start = await visitor.call<ChatSession>(a, 'POST', '/api/chat/start', { messages: [] });
    expect(start.status, start.text).toBe(200);
    expect(visitor.cookies.has(CHAT_COOKIE)).toBe(true);
    const { sessionId } = start.data;
    const added = await visitor.call<ChatReply>(b, 'POST', `/api/chat/${sessionId}/add`, {
      role: 'user',
      content: 'How do I export a table?',
    });
    expect(added.status, added.text).toBe(200);
    const read = await visitor.call<ChatSession>(a, 'GET', `/api/chat/${sessionId}`);
    expect(read.status, read.text).toBe(200);
    expect(read.data.messages.map((message) => message.role)).toEqual(
      expect.arrayContaining(['user', 'assistant']),
    );
    // Another browser (without the chat cookie) cannot read it on either instance.
    const stranger = new Browser();
    for (const instance of [a, b])
      expect((await stranger.call(instance, 'GET', `/api/chat/${sessionId}`)).status).toBe(404);
  });

  it('an administrator’s catalog refresh on one instance reaches the other', async () => {
    const reader$ = as(reader);
    const admin$ = as(admin);
    const tables = async (instance: Instance, who = reader$, refresh = false) => {
      const answer = await who<{ name: string }[]>(
        instance,
        'GET',
        `/api/sql/big${refresh ? '?refresh=true' : ''}`,
      );
      expect(answer.status, answer.text).toBe(200);
      return answer.data.map((t) => t.name);
    };
    expect(await tables(b)).toEqual(['big_rows', 'paged']);
    await sql`create table added_later (id integer primary key)`.execute(engines[0]!.db);
    expect(await tables(b)).toEqual(['big_rows', 'paged']);
    expect(await tables(a, admin$, true)).toEqual(['added_later', 'big_rows', 'paged']);
    await expect.poll(() => tables(b)).toEqual(['added_later', 'big_rows', 'paged']);
  });
});
