import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ImportPreview, ImportStatus } from '#common/contract/imports.ts';
import { connectDatabase } from '#server/engines/connect.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import { loadChinook } from '#server/test/chinook.ts';
import {
  chinookName,
  exportAndDownload,
  rowsThroughPages,
  schemaOf,
  type Envelope,
  type Kind,
} from '#server/test/export-steps.ts';
import { buildAdmin, type TestUser } from '#server/test/factories.ts';
import type { TestDatabase } from '#server/test/server-databases.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';

/*
 * DBUI's own CSV export of Chinook's Track (3,503 rows: unicode, quotes, commas, NULL composers, decimals) imported
 * back into the emptied table gives identical rows (issue 39, decision 0070), on SQLite, PostgreSQL and MariaDB
 * (ENGINES=… to choose). The track ids are kept (keepIdentity), so the rows can be compared whole.
 */

const chosen = (process.env.ENGINES ?? 'sqlite,postgres,mysql').split(',').map((e) => e.trim()) as Kind[];

describe.each(chosen)('an export of Track imported back on %s', (kind) => {
  let database: TestDatabase;
  let engine: DatabaseEngine;
  let t: TestApp;
  let admin: TestUser;
  const name = (pascal: string) => chinookName(kind, pascal);

  beforeAll(async () => {
    database = await loadChinook(kind);
    engine = await connectDatabase('chinook', kind, database.url);
    t = await buildTestApp({ databases: [engine] });
    admin = await buildAdmin(t);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it('gives the same rows', async () => {
    const schema = schemaOf(kind, database);
    const trackUrl = `/api/sql/chinook/${encodeURIComponent(schema)}/${name('Track')}`;
    const table = await engine.table(schema, name('Track'));
    const key = name('TrackId');
    const before = await rowsThroughPages(engine, table, { orderBy: key });
    expect(before).toHaveLength(3503);
    const { body } = await exportAndDownload(t, admin, trackUrl, { orderBy: key });

    for (const emptied of ['PlaylistTrack', 'InvoiceLine', 'Track'])
      await sql`delete from ${sql.id(name(emptied))}`.execute(engine.db);

    const boundary = `----dbui${randomBytes(8).toString('hex')}`;
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `${trackUrl}/import`,
      headers: { ...admin.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="track.csv"\r\n` +
            'Content-Type: text/csv\r\n\r\n',
        ),
        body,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const { id } = uploaded.json<Envelope<{ id: string }>>().data;
    const preview = await t.app.inject({
      method: 'GET',
      url: `${trackUrl}/import/${id}/preview`,
      headers: admin.headers,
    });
    const { mapping, fileColumns } = preview.json<Envelope<ImportPreview>>().data;
    // The identity is never proposed: keeping the file's ids is asked for.
    expect(Object.values(mapping)).not.toContain(key);
    const started = await t.app.inject({
      method: 'POST',
      url: `${trackUrl}/import/${id}/run`,
      headers: { ...admin.headers, 'content-type': 'application/json' },
      payload: JSON.stringify({
        mapping: { ...mapping, [fileColumns[0] ?? key]: key },
        mode: 'insert',
        dryRun: false,
        keepIdentity: true,
      }),
    });
    expect(started.statusCode, started.body).toBe(202);
    const status = await vi.waitFor(
      async () => {
        const answer = await t.app.inject({
          method: 'GET',
          url: `${trackUrl}/import/${id}`,
          headers: admin.headers,
        });
        const read = answer.json<Envelope<ImportStatus>>().data;
        expect(read.inProgress).toBe(false);
        return read;
      },
      { timeout: 60_000, interval: 100 },
    );
    expect(status).toMatchObject({ state: 'done', inserted: 3503, failed: 0, error: null });
    expect(await rowsThroughPages(engine, table, { orderBy: key })).toEqual(before);
    // The database numbers the next track past the imported ones (PostgreSQL's sequence was moved).
    const next = await engine.db.transaction().execute(async (trx) => {
      const made =
        await sql`insert into ${sql.id(name('Track'))} (${sql.id(name('Name'))}, ${sql.id(name('MediaTypeId'))}, ${sql.id(name('Milliseconds'))}, ${sql.id(name('UnitPrice'))}) values (${'New'}, ${1}, ${1}, ${1})`.execute(
          trx,
        );
      const found = await sql<{
        n: unknown;
      }>`select max(${sql.id(key)}) as n from ${sql.id(name('Track'))}`.execute(trx);
      return { made, max: Number(found.rows[0]?.n) };
    });
    expect(next.max).toBeGreaterThan(3503);
  }, 120_000);
});
