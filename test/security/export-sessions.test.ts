import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreSignIn } from '#common/contract/account.ts';
import { accountMessages as m, exportMessages as em } from '#common/messages.ts';
import { readStatus, startExport, waitForExport, type Envelope } from '#server/test/export-steps.ts';
import { findExportJob, insertExportJob } from '#server/store/export-jobs.ts';
import { AccountClient } from '#server/test/account-client.ts';
import { anotherSession, buildUser, type TestUser } from '#server/test/factories.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import type { TestApp } from '#server/test/test-app.ts';
import { anotherInstance, appStoreEnv, appStoreKinds, type AppStoreKind } from './app-stores.ts';
import {
  expectHealthy,
  expectNoLeak,
  openSecurityTarget,
  securityEngines,
  type SecurityEngine,
  type SecurityTarget,
} from './harness.ts';
import { expectNoSideEffect } from './side-effects.ts';

/*
 * An export's download link outlives nothing (issue 32 item 2, decision 0044): it is good only while the session
 * that started the export lives (an administrator's lock ends it), and the status and cancel calls of the job follow
 * the same rule, on every instance sharing the app store (the check reads the app store). Once the owner signs out,
 * an administrator locks them or ends their sessions, or the session runs idle, the link,
 * even one minted just before, serves no file: a plain 403 that says why, changing nothing but the audit trail; a
 * new sign-in of the same owner does not revive it. Run on SQLite, PostgreSQL and MariaDB, each on both app stores.
 * Covered in export-paths.test.ts and not repeated: another user's id, token or path tricks, a table its owner lost.
 */

const TABLE = 'semi;colon; DROP TABLE canary; --';
const SECRET_KEY = 'export-sessions-secret-key-0123456789abcdef';
const MINUTE = 60_000;

const combos = securityEngines.flatMap((engine) =>
  appStoreKinds.map((store) => ({ engine, store }) as { engine: SecurityEngine; store: AppStoreKind }),
);

describe.each(combos)('export links on $engine, $store app store', ({ engine, store }) => {
  let target: SecurityTarget;
  let dropStore: () => Promise<void>;
  let exportDir: ReturnType<typeof tempDir>;
  let tableUrl: string;
  let advanced = 0;

  const t = (): TestApp => target.t;
  /** Moves the app's time; moved back at the end so the administrator's session holds for the oracles. */
  const advance = (ms: number) => {
    advanced += ms;
    t().clock.advance(ms);
  };
  const owner = () => buildUser(t(), { links: [`/db/${target.database}/*`] });

  /** A finished export of TABLE by `user`; answers its id and a fresh download link. */
  async function finishedExport(user: TestUser): Promise<{ id: string; url: string }> {
    const started = await startExport(t(), user, tableUrl);
    expect(started.statusCode, started.body).toBe(202);
    const { id } = started.json<Envelope<{ id: string }>>().data;
    await waitForExport(t(), user, tableUrl, id);
    const url = (await readStatus(t(), user, tableUrl, id)).data.url;
    if (!url) throw new Error(`export ${id} has no link`);
    return { id, url };
  }
  const get = (url: string, user?: TestUser, app: TestApp = t()) =>
    app.app.inject({ method: 'GET', url, ...(user ? { headers: user.headers } : {}) });
  const status = (id: string, user: TestUser) => get(`${tableUrl}/export/${id}`, user);
  const cancel = (id: string, user: TestUser) =>
    t().app.inject({ method: 'POST', url: `${tableUrl}/export/${id}/cancel`, headers: user.headers });

  /** The refusal of an export whose session ended or whose owner is locked: 403, the sentence, no file. */
  function expectEnded(answer: LightMyRequestResponse) {
    expect(answer.statusCode, answer.body.slice(0, 300)).toBe(403);
    expect(answer.json<Envelope<null>>()).toMatchObject({ isSuccess: false, message: em.sessionEnded });
    expectNoLeak(answer);
    expect(answer.headers['content-disposition']).toBeUndefined();
    expect(answer.body).not.toContain('id,name,note');
  }
  /** A served file: the export's CSV. */
  function expectFile(answer: LightMyRequestResponse) {
    expect(answer.statusCode, answer.body.slice(0, 300)).toBe(200);
    expect(answer.body.split('\n')[0]?.trim()).toBe('id,name,note');
  }
  /** Every call on the job refused alike, with no effect but the audit of the refused downloads. */
  async function expectJobClosed(job: { id: string; url: string }, callers: TestUser[]) {
    await expectNoSideEffect(
      target,
      async () => {
        expectEnded(await get(job.url));
        for (const caller of callers) {
          expectEnded(await get(job.url, caller));
          expectEnded(await status(job.id, caller));
          expectEnded(await cancel(job.id, caller));
        }
      },
      { except: ['audit_log'] },
    );
  }

  beforeAll(async () => {
    const app = await appStoreEnv(store);
    dropStore = app.drop;
    exportDir = tempDir('dbui-exports-');
    target = await openSecurityTarget(engine, {
      env: { ...app.env, SECRET_KEY, EXPORT_DIR: exportDir.path },
    });
    tableUrl = target.apiPath(TABLE);
  });
  afterAll(async () => {
    if (target) {
      t().clock.advance(-advanced);
      await target.expectCanaryIntact();
      await expectHealthy(target);
      await target.close();
    }
    await dropStore?.();
    exportDir?.remove();
  });

  it('serves a link while its session lives, and nothing once the owner signed out, not even to a new sign-in', async () => {
    const user = await owner();
    const first = await finishedExport(user);
    expectFile(await get(first.url));
    const job = await finishedExport(user);
    const signedOut = await get('/api/account/logout', user);
    expect(signedOut.statusCode, signedOut.body).toBe(200);
    const again = await anotherSession(t(), user);
    await expectJobClosed(job, [again]);
    // The new sign-in exports and downloads as before.
    expectFile(await get((await finishedExport(again)).url, again));
  });

  it("ends with an administrator's lock or ending of sessions; unlocking does not bring it back", async () => {
    const locked = await owner();
    const lockedJob = await finishedExport(locked);
    const lock = await t().app.inject({
      method: 'POST',
      url: `/api/admin/users/${locked.userId}/lock`,
      headers: target.admin.headers,
      payload: {},
    });
    expect(lock.statusCode, lock.body).toBe(200);
    expectEnded(await get(lockedJob.url));
    const unlock = await t().app.inject({
      method: 'POST',
      url: `/api/admin/users/${locked.userId}/unlock`,
      headers: target.admin.headers,
    });
    expect(unlock.statusCode, unlock.body).toBe(200);
    await expectJobClosed(lockedJob, [await anotherSession(t(), locked)]);

    const ended = await owner();
    const endedJob = await finishedExport(ended);
    const end = await t().app.inject({
      method: 'POST',
      url: `/api/admin/users/${ended.userId}/end-sessions`,
      headers: target.admin.headers,
    });
    expect(end.statusCode, end.body).toBe(200);
    await expectJobClosed(endedJob, [await anotherSession(t(), ended)]);
  });

  it('ends when its session runs idle, whatever other session the owner holds', async () => {
    const user = await owner();
    const job = await finishedExport(user);
    // Another sign-in keeps being used; the one that started the export is left idle past its limit.
    const other = await anotherSession(t(), user);
    advance(t().config.sessionIdleMinutes * MINUTE - MINUTE);
    expect((await get('/api/account', other)).statusCode).toBe(200);
    advance(2 * MINUTE);
    expect((await get('/api/account', user)).statusCode).toBe(401);
    await expectJobClosed(job, [other]);
  });

  it("is not held by the automatic lockout: someone guessing the password cannot stop the owner's exports", async () => {
    const user = await owner();
    const job = await finishedExport(user);
    const browser = new AccountClient(t());
    for (let i = 0; i < 5; i++) {
      const wrong = await browser.post<PreSignIn>('/api/account/login', {
        username: user.username,
        password: 'Wrong#Pass1',
        token: await browser.humanCheck(),
      });
      expect(wrong.status).toBe(401);
      expect(wrong.message).toBe(m.loginFailed);
    }
    // The lockout answers guessing from outside: the owner's session goes on (decision 0013), and so do its exports.
    expect((await get('/api/account', user)).statusCode).toBe(200);
    expectFile(await get(job.url));
    const fresh = await readStatus(t(), user, tableUrl, job.id);
    expect(fresh.data.url).toMatch(/^\/api\/exports\//);
    expectFile(await get(fresh.data.url ?? ''));
  });

  it('lets a new sign-in export at once: a job of an ended session is stopped, not left in the way', async () => {
    const user = await owner();
    // A job still queued when its session ends (nothing picks it up: it was never put on the runner's queue).
    const queued = crypto.randomUUID();
    await insertExportJob(
      t().store.db,
      {
        id: queued,
        userId: user.userId,
        sessionId: user.sessionId,
        database: target.database,
        schema: target.schema,
        table: TABLE,
        format: 'csv',
        request: JSON.stringify({ filter: {}, orderBy: null, bom: false }),
        rowsTotal: 3,
        rowsTotalIsEstimate: false,
      },
      new Date().toISOString(),
    );
    // While the session lives, the one-export rule holds.
    expect((await startExport(t(), user, tableUrl)).statusCode).toBe(409);
    expect((await get('/api/account/logout', user)).statusCode).toBe(200);
    const again = await anotherSession(t(), user);
    expect((await startExport(t(), again, tableUrl)).statusCode).toBe(202);
    expect(await findExportJob(t().store.db, queued)).toMatchObject({
      status: 'failed',
      error: em.sessionEnded,
    });
  });

  it.runIf(store === 'postgres')(
    'is checked in the app store: another instance serves the link, and refuses it after the sign-out',
    async () => {
      const second = await anotherInstance(t(), { env: { SECRET_KEY, EXPORT_DIR: exportDir.path } });
      try {
        const user = await owner();
        expectFile(await get((await finishedExport(user)).url, undefined, second));
        const job = await finishedExport(user);
        const signedOut = await get('/api/account/logout', user, second);
        expect(signedOut.statusCode, signedOut.body).toBe(200);
        expectEnded(await get(job.url, undefined, second));
        expectEnded(await get(job.url));
        expectEnded(await status(job.id, await anotherSession(t(), user)));
      } finally {
        await second.close();
      }
    },
  );
});
