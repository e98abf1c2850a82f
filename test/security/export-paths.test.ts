import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '#common/contract/admin.ts';
import { exportMessages as em } from '#common/messages.ts';
import { ACCESS_DENIED } from '#server/access/policy.ts';
import { readStatus, startExport, waitForExport, type Envelope } from '#server/test/export-steps.ts';
import { insertExportJob } from '#server/store/export-jobs.ts';
import { buildUser, type TestUser } from '#server/test/factories.ts';
import {
  expectHealthy,
  expectNoLeak,
  openSecurityTarget,
  securityEngines,
  type SecurityTarget,
} from './harness.ts';
import { expectNoSideEffect } from './side-effects.ts';

/*
 * Export download paths, on SQLite, PostgreSQL and MariaDB, exporting a table whose name is an SQL statement:
 * another user's job id at status, cancel and delete; a download token of another job, or changed; `..`, encoded
 * slashes, backslashes, look-alike slashes and NULs in the id, the table path and the file route; a job of a table
 * its owner lost access to. Every refusal is a plain 4xx that serves no file and changes nothing. Covered in
 * server/features/exports/exports.db.test.ts and not repeated: a status is only its owner's, also under another
 * table's path; a link works once, expires after five minutes, is replaced by the next status read, and refuses
 * another signed-in user; a made-up token and non-UUID ids (`..%2F..%2Fapp.db`, `%2Fetc%2Fpasswd`) are refused.
 */

const TABLE = 'semi;colon; DROP TABLE canary; --';
const TOKEN = /t=([A-Za-z0-9_-]{43})$/;

describe.each(securityEngines)('export paths on %s', (kind) => {
  let target: SecurityTarget;
  let owner: TestUser;
  let other: TestUser;
  let tableUrl: string;

  /** A finished export of TABLE by `user`; answers its id and a fresh download link. */
  async function finishedExport(user: TestUser): Promise<{ id: string; url: string }> {
    const started = await startExport(target.t, user, tableUrl);
    expect(started.statusCode, started.body).toBe(202);
    const { id } = started.json<Envelope<{ id: string }>>().data;
    await waitForExport(target.t, user, tableUrl, id);
    const url = (await readStatus(target.t, user, tableUrl, id)).data.url;
    if (!url) throw new Error(`export ${id} has no link`);
    return { id, url };
  }
  const get = (url: string, user?: TestUser) =>
    target.t.app.inject({ method: 'GET', url, ...(user ? { headers: user.headers } : {}) });
  /** A refusal: 4xx, the envelope with a message, no export file in it, nothing internal. */
  function expectRefused(answer: LightMyRequestResponse, statuses = [400, 403, 404]) {
    expect(statuses, `${answer.statusCode} ${answer.body.slice(0, 200)}`).toContain(answer.statusCode);
    expectNoLeak(answer);
    expect(answer.headers['content-disposition']).toBeUndefined();
    expect(answer.body).not.toContain('id,name,note');
    expect(answer.body).not.toContain('SQLite format');
  }

  beforeAll(async () => {
    target = await openSecurityTarget(kind);
    tableUrl = target.apiPath(TABLE);
    owner = await buildUser(target.t, { links: [`/db/${target.database}/*`] });
    other = await buildUser(target.t, { links: [`/db/${target.database}/*`] });
  });
  afterAll(async () => {
    if (!target) return;
    await target.expectCanaryIntact();
    await expectHealthy(target);
    await target.close();
  });

  it('serves the owner a file named after the table, its header free of injected lines', async () => {
    const { url } = await finishedExport(owner);
    const file = await get(url);
    expect(file.statusCode, file.body).toBe(200);
    const disposition = String(file.headers['content-disposition']);
    expect(disposition).not.toMatch(/[\r\n]/);
    expect(decodeURIComponent(disposition.split("UTF-8''")[1] ?? '')).toContain(TABLE);
    expect(file.body.split('\n')[0]?.trim()).toBe('id,name,note');
  });

  it('keeps a job to its owner: another reader of the table can neither see, cancel nor delete it', async () => {
    const done = await finishedExport(owner);
    // A job still queued, so a cancel would have something to stop.
    const queued = crypto.randomUUID();
    await insertExportJob(
      target.t.store.db,
      {
        id: queued,
        userId: owner.userId,
        sessionId: owner.sessionId,
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
    await expectNoSideEffect(
      target,
      async () => {
        for (const id of [done.id, queued]) {
          const jobUrl = `${tableUrl}/export/${id}`;
          for (const answer of [
            await get(jobUrl, other),
            await target.t.app.inject({ method: 'POST', url: `${jobUrl}/cancel`, headers: other.headers }),
            await target.t.app.inject({ method: 'DELETE', url: jobUrl, headers: other.headers }),
          ]) {
            expectRefused(answer, [404]);
            expect(answer.json<Envelope<null>>().message).toBe(em.notFound);
          }
        }
        // The owner's link does not serve the other reader either (and stays good for the owner).
        expectRefused(await get(done.url, other), [403]);
        // That refusal is audited (access.denied): its one effect.
      },
      { except: ['audit_log'] },
    );
    const cancelled = await target.t.app.inject({
      method: 'POST',
      url: `${tableUrl}/export/${queued}/cancel`,
      headers: owner.headers,
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((await get(done.url)).statusCode).toBe(200);
  });

  it('takes a download token for its own job only, exactly as issued', async () => {
    const first = await finishedExport(owner);
    const second = await finishedExport(owner);
    const token = TOKEN.exec(first.url)?.[1] ?? '';
    const flipped = [...token]
      .map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()))
      .join('');
    await expectNoSideEffect(
      target,
      async () => {
        for (const url of [
          `/api/exports/${second.id}/file?t=${token}`, // another job's token
          `/api/exports/${first.id}/file?t=${flipped}`, // the token in other letters' case
          `/api/exports/${first.id}/file?t=${token}x`,
          `/api/exports/${first.id}/file?t=${token.slice(0, -1)}`,
          `/api/exports/${first.id}/file?t=${token}&t=${token}`,
          `/api/exports/${first.id}/file?t[]=${token}`,
          `/api/exports/${first.id.toUpperCase()}/file?t=${token}`,
        ])
          expectRefused(await get(url));
      },
      // A refused download of a real job is audited (access.denied) where a signed-in caller is told apart.
      { except: ['audit_log'] },
    );
    // Nothing above used up the real links.
    expect((await get(first.url)).statusCode).toBe(200);
    expect((await get(second.url)).statusCode).toBe(200);
  });

  it('reaches no file through dots, encoded slashes or look-alikes in the id, the table or the file route', async () => {
    const { id, url } = await finishedExport(owner);
    const token = TOKEN.exec(url)?.[1] ?? '';
    const s = encodeURIComponent(target.schema);
    const base = `/api/sql/${target.database}/${s}`;
    const tricks = [
      `/api/exports/../../app.db/file?t=${token}`,
      `/api/exports/..%2F..%2Fapp.db/file?t=${token}`,
      `/api/exports/..%252F..%252Fapp.db/file?t=${token}`,
      `/api/exports/${id}%2F..%2F..%2Fapp.db/file?t=${token}`,
      `/api/exports/${id}%00/file?t=${token}`,
      `/api/exports/${id}%2Ffile?t=${token}`,
      `/api/exports/..%5C..%5Capp.db/file?t=${token}`,
      `/api/exports/%E2%88%95etc%E2%88%95passwd/file?t=${token}`,
      `/api/exports/${id}/file/..?t=${token}`,
      `/api/exports/${id}/file%2F..%2F..%2Fapp.db?t=${token}`,
      `/api/exports/${id}/..%2F${id}/file?t=${token}`,
      `${base}/..%2F${encodeURIComponent(TABLE)}/export/${id}`,
      `${base}/${encodeURIComponent(TABLE)}%2F..%2Fcanary/export/${id}`,
      `${base}/${encodeURIComponent(TABLE)}/export/..%2F${id}`,
      `${base}/${encodeURIComponent(TABLE)}/export/${id}%2F..%2F..`,
      `${base}/${encodeURIComponent(TABLE)}/export/%2E%2E`,
      `/api/sql/${target.database}/..%2F..%2F/${encodeURIComponent(TABLE)}/export/${id}`,
    ];
    await expectNoSideEffect(
      target,
      async () => {
        for (const trick of tricks)
          expectRefused(await get(trick, trick.startsWith('/api/sql') ? owner : undefined));
      },
      { except: ['audit_log'] },
    );
    expect((await get(url)).statusCode).toBe(200);
  });

  it('refuses a job of a table its owner lost access to, at status, cancel and download', async () => {
    const leaver = await buildUser(target.t, { links: [`/db/${target.database}/*`] });
    const { id, url } = await finishedExport(leaver);
    // The administrator narrows the leaver's role to another database.
    const roles = await target.t.app.inject({
      method: 'GET',
      url: `/api/admin/roles?name=${encodeURIComponent(`role-${leaver.username}`)}`,
      headers: target.admin.headers,
    });
    const roleId = roles.json<Envelope<{ results: { Id: number }[] }>>().data.results[0]?.Id;
    const role = (await get(`/api/admin/roles/${roleId}`, target.admin)).json<Envelope<Role>>().data;
    const saved = await target.t.app.inject({
      method: 'POST',
      url: '/api/admin/roles',
      headers: target.admin.headers,
      payload: { ...role, Role_Links: [{ Id: 0, RoleId: role.Id, Link: '/db/elsewhere/*' }] },
    });
    expect(saved.statusCode, saved.body).toBe(200);

    await expectNoSideEffect(
      target,
      async () => {
        expectRefused(await get(`${tableUrl}/export/${id}`, leaver), [403]);
        const cancel = await target.t.app.inject({
          method: 'POST',
          url: `${tableUrl}/export/${id}/cancel`,
          headers: leaver.headers,
        });
        expectRefused(cancel, [403]);
        for (const download of [await get(url), await get(url, leaver)]) {
          expectRefused(download, [403]);
          expect(download.json<Envelope<null>>().message).toBe(ACCESS_DENIED);
        }
      },
      { except: ['audit_log'] },
    );
  });
});
