import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import ExcelJS from 'exceljs';
import type { Row, Table } from '#common/contract/sql.ts';
import type { ExportStatus } from '#common/contract/exports.ts';
import { exportMessages as em } from '#common/messages.ts';
import { connectDatabase } from '#server/engines/connect.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import { exportFilePath } from '#server/jobs/export-files.ts';
import { exportJobTuning } from '#server/jobs/export-job.ts';
import { insertExportJob, endExport } from '#server/store/export-jobs.ts';
import { loadChinook } from '#server/test/chinook.ts';
import { buildAdmin, buildUser, type TestUser } from '#server/test/factories.ts';
import type { TestDatabase } from '#server/test/server-databases.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';
import {
  chinookName,
  createOddValues,
  csvCell,
  exportAndDownload,
  readCsv,
  readStatus,
  rowsThroughPages,
  schemaOf,
  startExport,
  waitForExport,
  type Envelope,
  type Kind,
} from '#server/test/export-steps.ts';
import { contentDisposition } from './routes.ts';

/*
 * Exports over HTTP against real Chinook databases on SQLite, PostgreSQL and MariaDB (ENGINES=… to choose): every
 * format read back and compared row for row with the table read through the engine's pages, with the filter and
 * sort honoured, and the rules around it (one export at a time, access, the download link).
 */

const chosen = (process.env.ENGINES ?? 'sqlite,postgres,mysql').split(',').map((e) => e.trim()) as Kind[];

/** Every cell of an XLSX's sheets, header rows included, as exceljs reads them back. */
async function readXlsx(body: Buffer): Promise<{ name: string; rows: unknown[][] }[]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  return workbook.worksheets.map((sheet) => {
    const rows: unknown[][] = [];
    sheet.eachRow({ includeEmpty: true }, (row) => {
      const cells: unknown[] = [];
      for (let c = 1; c <= sheet.columnCount; c++) {
        const value = row.getCell(c).value;
        cells.push(value === undefined ? null : value);
      }
      rows.push(cells);
    });
    return { name: sheet.name, rows };
  });
}

describe.each(chosen)('exports on %s', (kind) => {
  const n = (pascal: string) => chinookName(kind, pascal);
  let database: TestDatabase;
  let engine: DatabaseEngine;
  let t: TestApp;
  let schema: string;
  let admin: TestUser;
  let reader: TestUser;
  let stranger: TestUser;
  const at = (table: string) => `/api/sql/chinook/${schema}/${table}`;

  beforeAll(async () => {
    database = await loadChinook(kind);
    schema = schemaOf(kind, database);
    engine = await connectDatabase('chinook', kind, database.url);
    await createOddValues(kind, engine);
    t = await buildTestApp({ databases: [engine] });
    admin = await buildAdmin(t);
    reader = await buildUser(t, { links: ['/db/chinook/*'] });
    stranger = await buildUser(t, { links: [`/db/chinook/${schema}/${n('Genre')}`] });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  const table = async (name: string): Promise<Table> => engine.table(schema, name);

  /** The CSV's records compared with the rows: header, then each field as DBUI writes the wire value (formula-like
   * text quoted). */
  function expectCsvEqualsRows(text: string, t: Table, rows: Row[]) {
    const records = readCsv(text);
    const names = t.columns.map((c) => c.name);
    expect(records[0]).toEqual(names);
    expect(records.length - 1).toBe(rows.length);
    rows.forEach((row, i) => {
      expect(records[i + 1], `row ${i + 1}`).toEqual(
        t.columns.map((column) => csvCell(column, row[column.name])),
      );
    });
  }

  describe('each format equals the table read through its pages', () => {
    it('CSV of the awkward values: nulls, unicode, quotes, commas, newlines, empty text, binary, big numbers', async () => {
      const odd = await table('odd_values');
      const rows = await rowsThroughPages(engine, odd);
      expect(rows).toHaveLength(5);
      const { body, status, response } = await exportAndDownload(t, reader, at('odd_values'));
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toMatch(
        /^attachment; filename="odd_values-\d{8}-\d{6}\.csv"; filename\*=UTF-8''odd_values-\d{8}-\d{6}\.csv$/,
      );
      expect(status).toMatchObject({
        state: 'done',
        inProgress: false,
        percentageCompleted: 100,
        percentageRemaining: 0,
        secondsRemaining: 0,
        rowsWritten: 5,
        rowsTotal: 5,
        rowsTotalIsEstimate: false,
        format: 'csv',
      });
      expect(status.data).toMatch(/^odd_values-\d{8}-\d{6}\.csv$/);
      const text = body.toString('utf8');
      expect(text.charCodeAt(0)).not.toBe(0xfeff);
      expectCsvEqualsRows(text, odd, rows);
      // The values the wire promises: big integers exact, binary as base64, newlines kept inside quotes.
      const byId = (id: number) => rows.find((r) => r.id === id)!;
      expect(byId(2).big).toBe('9007199254740993');
      expect(byId(2).data).toBe(
        Buffer.from([0, 1, 2, 0x22, 0x2c, 0x0a, 0xff, 0xfe, 0x80]).toString('base64'),
      );
      expect(byId(3).label).toBe('line1\nline2\r\nline3');
      expect(byId(3).note).toBe('');
      expect(text).toContain('"line1\nline2\r\nline3"');
      expect(text).toContain(',"",');
      // A formula in a text column reaches the file as text a spreadsheet will not run (OWASP CSV injection).
      expect(byId(5).label).toBe('=1+2');
      expect(text).toContain("\n5,'=1+2,");
    });

    it('CSV of a whole Chinook table, and with a BOM for Excel', async () => {
      const track = await table(n('Track'));
      const rows = await rowsThroughPages(engine, track);
      const { body } = await exportAndDownload(t, reader, at(n('Track')), { bom: true });
      const text = body.toString('utf8');
      expect(body.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
      expectCsvEqualsRows(text.slice(1), track, rows);
    });

    it('JSON Lines: one object per row, values as on the wire', async () => {
      for (const name of ['odd_values', n('Invoice')]) {
        const source = await table(name);
        const rows = await rowsThroughPages(engine, source);
        const { body, response } = await exportAndDownload(t, reader, at(name), { format: 'jsonl' });
        expect(response.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
        const lines = body.toString('utf8').split('\n');
        expect(lines.pop()).toBe('');
        expect(lines.map((line) => JSON.parse(line) as Row)).toEqual(rows);
        // Keys in column order.
        expect(Object.keys(JSON.parse(lines[0]!) as Row)).toEqual(source.columns.map((c) => c.name));
      }
    });

    it('XLSX: a header row, then the rows, cells typed as the wire values', async () => {
      const odd = await table('odd_values');
      const rows = await rowsThroughPages(engine, odd);
      const { body, response } = await exportAndDownload(t, reader, at('odd_values'), { format: 'xlsx' });
      expect(response.headers['content-type']).toBe(
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      );
      const sheets = await readXlsx(body);
      expect(sheets.map((s) => s.name)).toEqual(['odd_values']);
      const names = odd.columns.map((c) => c.name);
      // What XLSX cannot carry (export-formats.ts): an empty string is an empty cell, and XML reads CR LF as LF.
      const cell = (value: Row[string] | undefined) =>
        value === '' ? null : typeof value === 'string' ? value.replaceAll('\r\n', '\n') : (value ?? null);
      expect(sheets[0]!.rows).toEqual([names, ...rows.map((row) => names.map((name) => cell(row[name])))]);
      // '=1+2' is a string cell, not a formula (which would read back as { formula }): no quote needed in XLSX.
      expect(sheets[0]!.rows.find((row) => row[0] === 5)?.[1]).toBe('=1+2');
    });

    it('XLSX longer than a sheet continues on more sheets, each with the header', async () => {
      const track = await table(n('Track'));
      const rows = await rowsThroughPages(engine, track, { orderBy: n('Name') });
      const before = exportJobTuning.rowsPerSheet;
      exportJobTuning.rowsPerSheet = 1001;
      try {
        const { body } = await exportAndDownload(t, reader, at(n('Track')), {
          format: 'xlsx',
          orderBy: n('Name'),
        });
        const sheets = await readXlsx(body);
        expect(sheets.map((s) => s.name)).toEqual([
          n('Track'),
          `${n('Track')} (2)`,
          `${n('Track')} (3)`,
          `${n('Track')} (4)`,
        ]);
        const names = track.columns.map((c) => c.name);
        for (const sheet of sheets) expect(sheet.rows[0]).toEqual(names);
        expect(sheets.map((s) => s.rows.length - 1)).toEqual([1000, 1000, 1000, 503]);
        expect(sheets.flatMap((s) => s.rows.slice(1))).toEqual(
          rows.map((row) => names.map((name) => row[name] ?? null)),
        );
      } finally {
        exportJobTuning.rowsPerSheet = before;
      }
    });
  });

  describe('the filter and the sort', () => {
    it('exports exactly the rows and order a page shows', async () => {
      const track = await table(n('Track'));
      const query = { filter: { [n('AlbumId')]: '1' }, orderBy: `-${n('Name')}` };
      const rows = await rowsThroughPages(engine, track, query);
      expect(rows.length).toBe(10);
      for (const format of ['csv', 'jsonl'] as const) {
        const { body, status } = await exportAndDownload(t, reader, at(n('Track')), { ...query, format });
        expect(status.rowsWritten).toBe(10);
        if (format === 'csv') expectCsvEqualsRows(body.toString('utf8'), track, rows);
        else
          expect(
            body
              .toString('utf8')
              .trim()
              .split('\n')
              .map((line) => JSON.parse(line) as Row),
          ).toEqual(rows);
      }
    });

    it('sorts a whole table descending the way pages do (the key breaks ties)', async () => {
      const invoice = await table(n('Invoice'));
      const query = { orderBy: `-${n('BillingCountry')}` };
      const rows = await rowsThroughPages(engine, invoice, query);
      const { body } = await exportAndDownload(t, reader, at(n('Invoice')), query);
      expectCsvEqualsRows(body.toString('utf8'), invoice, rows);
    });

    it('refuses a filter or sort a page would refuse, before starting anything', async () => {
      const unknown = await startExport(t, reader, at(n('Track')), { filter: { Nope: 'x' } });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json<Envelope<null>>().message).toMatch(/Nope is not a column/);
      const sort = await startExport(t, reader, at(n('Track')), { orderBy: 'Nope' });
      expect(sort.statusCode).toBe(400);
      expect(sort.json<Envelope<null>>().message).toMatch(/orderBy: Nope is not a column/);
      const format = await startExport(t, reader, at(n('Track')), { format: 'pdf' });
      expect(format.statusCode).toBe(400);
      expect(format.json<Envelope<null>>().message).toMatch(/format must be csv, jsonl or xlsx/);
      const garbled = await t.app.inject({
        method: 'POST',
        url: `${at(n('Track'))}/export`,
        headers: { ...reader.headers, 'content-type': 'text/plain' },
        payload: '%%%not base64',
      });
      expect(garbled.statusCode).toBe(400);
      expect(garbled.json<Envelope<null>>().message).toMatch(/not valid base64/);
      const jobs = await t.store.db
        .selectFrom('export_jobs')
        .select('id')
        .where('user_id', '=', reader.userId);
      expect((await jobs.execute()).every(Boolean)).toBe(true);
    });

    it('takes the filter as a plain JSON object too', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: `${at(n('Track'))}/export?format=jsonl`,
        headers: { ...reader.headers, 'content-type': 'application/json' },
        payload: JSON.stringify({ [n('AlbumId')]: 1 }),
      });
      expect(response.statusCode, response.body).toBe(202);
      const { id } = response.json<Envelope<{ id: string }>>().data;
      const last = (await waitForExport(t, reader, at(n('Track')), id)).at(-1)!;
      expect(last.data.rowsWritten).toBe(10);
    });
  });

  describe('rules', () => {
    it('one export at a time per user', async () => {
      const id = crypto.randomUUID();
      await insertExportJob(
        t.store.db,
        {
          id,
          userId: admin.userId,
          sessionId: admin.sessionId,
          database: 'chinook',
          schema,
          table: n('Genre'),
          format: 'csv',
          request: JSON.stringify({ filter: {}, orderBy: null, bom: false }),
          rowsTotal: 25,
          rowsTotalIsEstimate: false,
        },
        new Date().toISOString(),
      );
      const second = await startExport(t, admin, at(n('Track')));
      expect(second.statusCode).toBe(409);
      expect(second.json<Envelope<null>>()).toEqual({
        isSuccess: false,
        data: null,
        message: em.alreadyRunning,
      });
      // Someone else may export meanwhile.
      expect((await startExport(t, stranger, at(n('Genre')))).statusCode).toBe(202);
      await endExport(t.store.db, id, 'cancelled', em.cancelled, new Date().toISOString());
      const again = await startExport(t, admin, at(n('Track')));
      expect(again.statusCode).toBe(202);
      await waitForExport(t, admin, at(n('Track')), again.json<Envelope<{ id: string }>>().data.id);
    });

    it('needs read access to the table, and a status is only its owner’s', async () => {
      const refused = await startExport(t, stranger, at(n('Track')));
      expect(refused.statusCode).toBe(403);
      expect(refused.json<Envelope<null>>().message).toBe('You do not have access to that table.');
      const missing = await startExport(t, stranger, at('no_such_table'));
      expect(missing.statusCode).toBe(403);
      const anonymous = await t.app.inject({ method: 'POST', url: `${at(n('Track'))}/export` });
      expect([401, 403]).toContain(anonymous.statusCode);

      const started = await startExport(t, reader, at(n('Genre')));
      const { id } = started.json<Envelope<{ id: string }>>().data;
      await waitForExport(t, reader, at(n('Genre')), id);
      const others = await t.app.inject({
        method: 'GET',
        url: `${at(n('Genre'))}/export/${id}`,
        headers: stranger.headers,
      });
      expect(others.statusCode).toBe(404);
      expect(others.json<Envelope<null>>().message).toBe(em.notFound);
      // The same job under another table's path is not found either.
      const elsewhere = await t.app.inject({
        method: 'GET',
        url: `${at(n('Track'))}/export/${id}`,
        headers: reader.headers,
      });
      expect(elsewhere.statusCode).toBe(404);
    });

    it('the download link works once, expires, and refuses another user', async () => {
      const started = await startExport(t, reader, at(n('Genre')));
      const { id } = started.json<Envelope<{ id: string }>>().data;
      await waitForExport(t, reader, at(n('Genre')), id);

      // Another signed-in user with the owner's link: refused, and the link still works for the owner.
      const first = (await readStatus(t, reader, at(n('Genre')), id)).data.url!;
      const other = await t.app.inject({ method: 'GET', url: first, headers: stranger.headers });
      expect(other.statusCode).toBe(403);
      expect(other.json<Envelope<null>>().message).toBe(em.notOwner);
      const mine = await t.app.inject({ method: 'GET', url: first, headers: reader.headers });
      expect(mine.statusCode).toBe(200);
      expect(readCsv(mine.body)).toHaveLength(26);
      // Used once: the same link again is refused.
      const reused = await t.app.inject({ method: 'GET', url: first });
      expect(reused.statusCode).toBe(404);
      expect(reused.json<Envelope<null>>().message).toBe(em.linkInvalid);

      // Each status read gives a new link and the older one stops working.
      const older = (await readStatus(t, reader, at(n('Genre')), id)).data.url!;
      const newer = (await readStatus(t, reader, at(n('Genre')), id)).data.url!;
      expect(newer).not.toBe(older);
      expect((await t.app.inject({ method: 'GET', url: older })).statusCode).toBe(404);

      // Expired: five minutes later it is refused.
      await t.store.db
        .updateTable('export_jobs')
        .set({ download_token_expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', id)
        .execute();
      expect((await t.app.inject({ method: 'GET', url: newer })).statusCode).toBe(404);

      // A made-up token for a real job: refused the same way.
      const guessed = `/api/exports/${id}/file?t=${'A'.repeat(43)}`;
      expect((await t.app.inject({ method: 'GET', url: guessed })).statusCode).toBe(404);
      const audits = await t.store.db
        .selectFrom('audit_log')
        .select(['action', 'user_id'])
        .where('action', 'in', ['export.start', 'export.download'])
        .where('user_id', '=', reader.userId)
        .execute();
      expect(audits.filter((a) => a.action === 'export.download').length).toBeGreaterThanOrEqual(1);
    });

    it('refuses ids that are not UUIDs (no path can be reached through them)', async () => {
      const token = 'A'.repeat(43);
      for (const id of [
        '..%2F..%2Fapp.db',
        '..%2Fexports',
        'not-a-uuid',
        '%2Fetc%2Fpasswd',
        '00000000-0000-0000-0000-00000000000g',
      ]) {
        const file = await t.app.inject({ method: 'GET', url: `/api/exports/${id}/file?t=${token}` });
        expect(file.statusCode, id).toBe(400);
        expect(file.json<Envelope<null>>().message).toMatch(/UUID/);
        const status = await t.app.inject({
          method: 'GET',
          url: `${at(n('Genre'))}/export/${id}`,
          headers: reader.headers,
        });
        expect(status.statusCode, id).toBe(400);
      }
      const noToken = await t.app.inject({ method: 'GET', url: `/api/exports/${crypto.randomUUID()}/file` });
      expect(noToken.statusCode).toBe(400);
      const badToken = await t.app.inject({
        method: 'GET',
        url: `/api/exports/${crypto.randomUUID()}/file?t=../../x`,
      });
      expect(badToken.statusCode).toBe(400);
      expect(() => exportFilePath(t.config.dataDir, '../../app', 'csv')).toThrow();
    });

    it('a failed export answers isSuccess false with its reason, and its file is gone', async () => {
      const started = await startExport(t, reader, at(n('Genre')));
      const { id } = started.json<Envelope<{ id: string }>>().data;
      await waitForExport(t, reader, at(n('Genre')), id);
      // A finished export has nothing to cancel: the answer says how it ended (one outcome, no 409: issue 32), and
      // its file stays.
      const late = await t.app.inject({
        method: 'POST',
        url: `${at(n('Genre'))}/export/${id}/cancel`,
        headers: reader.headers,
      });
      expect(late.statusCode).toBe(200);
      const answer = late.json<Envelope<ExportStatus>>();
      expect(answer.isSuccess).toBe(true);
      expect(answer.message).toBe(em.alreadyEnded);
      expect(answer.data).toMatchObject({ id, state: 'done', inProgress: false, url: null });
      expect(fs.existsSync(exportFilePath(t.config.dataDir, id, 'csv'))).toBe(true);
    });
  });
});

describe('Content-Disposition', () => {
  it('gives an ASCII fallback and the UTF-8 name (RFC 6266)', () => {
    expect(contentDisposition('Track-20261121-101500.csv')).toBe(
      `attachment; filename="Track-20261121-101500.csv"; filename*=UTF-8''Track-20261121-101500.csv`,
    );
    expect(contentDisposition('Überweisung "neu"-1.csv')).toBe(
      `attachment; filename="_berweisung _neu_-1.csv"; filename*=UTF-8''%C3%9Cberweisung%20%22neu%22-1.csv`,
    );
  });
});
