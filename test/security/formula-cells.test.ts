import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Filter, Row } from '#common/contract/sql.ts';
import {
  csvField,
  readCsv,
  rowsThroughPages,
  startExport,
  waitForExport,
  type Envelope,
} from '#server/test/export-steps.ts';
import {
  expectHealthy,
  expectNoLeak,
  openSecurityTarget,
  securityEngines,
  type SecurityTarget,
} from './harness.ts';

/*
 * CSV injection (OWASP): a text cell that starts with = + - @, a tab or a carriage return is read by a spreadsheet
 * as a formula (=HYPERLINK(…) opens as a live link). Every CSV an export writes must carry such text cells with a
 * leading single quote, whoever formats the file (PostgreSQL's COPY, the MySQL/MariaDB select, csv-stringify), while
 * numbers, negative ones included, stay as they are. Checked over the API on each engine: start, poll, download
 * through the one-time link, and the whole file compared with the table read through its pages.
 */

/** The text cells an attacker would store, and a harmless one. */
const FORMULAS = ['=HYPERLINK("http://x","y")', '+1', '-2+3', '@SUM(A1)', '\tx', '\rx'];
const PLAIN = 'plain text';

/** The oracle, written out independently of the code under test: text that starts like a formula gets a quote. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** Text columns of the test tables (all others are numbers or the key). */
const TEXT_COLUMNS = new Set(['label', 'note', 'code', 'grp', 'name']);

describe.each(securityEngines)('formula cells in exports on %s', (kind) => {
  let target: SecurityTarget;
  const textType = kind === 'mysql' ? 'varchar(200)' : 'text';

  /** A table of formula text, plain text and negative numbers; `withFloat` adds a float column, which no engine
   * writes as CSV itself, so the rows go through csv-stringify. */
  async function createFormulaTable(name: string, withFloat: boolean): Promise<void> {
    const db = target.engine.db;
    await target.run(
      `CREATE TABLE ${name} (id integer primary key, label ${textType}, note ${textType}, code char(6), ` +
        `grp varchar(10) not null, qty integer, amount numeric(10,2), big bigint${withFloat ? ', ratio double precision' : ''})`,
    );
    await target.run(`CREATE INDEX ${name}_grp ON ${name} (grp)`);
    const labels = [...FORMULAS, PLAIN, null, '', "'already quoted", 'a=b', '-'];
    for (const [i, label] of labels.entries()) {
      const values: Record<string, unknown> = {
        id: i + 1,
        label,
        note: i % 2 ? `-${i}` : `note ${i}`,
        code: i === 0 ? '=A1' : i === 1 ? '@x' : 'c',
        grp: 'g',
        qty: -5 * (i + 1),
        amount: `-${i}.50`,
        big: i === 0 ? -9007199254740993n : -i,
      };
      if (withFloat) values.ratio = -1.5 * i;
      const names = Object.keys(values);
      await sql`insert into ${sql.id(name)} (${sql.join(names.map((n) => sql.id(n)))}) values (${sql.join(names.map((n) => values[n]))})`.execute(
        db,
      );
    }
  }

  beforeAll(async () => {
    target = await openSecurityTarget(kind);
    await createFormulaTable('formula_cells', false);
    await createFormulaTable('formula_floats', true);
    // Formula text in a table with a hostile name as well.
    const hostile = target.tables.find((t) => t.startsWith('semi;colon'))!;
    const q = kind === 'mysql' ? `\`${hostile}\`` : `"${hostile}"`;
    await sql`insert into ${sql.raw(q)} (id, name, note) values (4, ${FORMULAS[0]}, ${'-1'}), (5, ${'@cmd'}, ${'+x'})`.execute(
      target.engine.db,
    );
    await target.engine.catalog({ refresh: true });
  });
  afterAll(() => target?.close());

  /** An export through the API: start, poll the status to its end, download the file with the one-time link. Every
   * answer on the way is checked for leaks. */
  async function exportThroughApi(
    table: string,
    options: { filter?: Filter; format?: string; orderBy?: string } = {},
  ): Promise<Buffer> {
    const path = target.apiPath(table);
    const started = await startExport(target.t, target.admin, path, { orderBy: 'id', ...options });
    expectNoLeak(started);
    expect(started.statusCode, started.body).toBe(202);
    const { id } = started.json<Envelope<{ id: string }>>().data;
    const reads = await waitForExport(target.t, target.admin, path, id);
    for (const read of reads) expectNoLeak(JSON.stringify(read));
    const last = reads.at(-1)!;
    expect(last.isSuccess, last.message ?? '').toBe(true);
    const download = await target.t.app.inject({ method: 'GET', url: last.data.url! });
    expect(download.statusCode).toBe(200);
    return download.rawPayload;
  }

  /** The CSV a spreadsheet may open safely: the header, then each row, its formula-like text cells quoted. */
  async function expectedRecords(table: string, filter: Filter = {}): Promise<(string | null)[][]> {
    const source = await target.engine.table(target.schema, table);
    const rows: Row[] = await rowsThroughPages(target.engine, source, { filter, orderBy: 'id' });
    const names = source.columns.map((c) => c.name);
    return [
      names,
      ...rows.map((row) =>
        names.map((name) => {
          const value = row[name];
          if (TEXT_COLUMNS.has(name) && typeof value === 'string' && FORMULA_START.test(value))
            return `'${value}`;
          return csvField(value);
        }),
      ),
    ];
  }

  /** The file equals the rows with formulas quoted, and shows the quoted cells and the untouched numbers. */
  async function expectSafeCsv(table: string, filter: Filter = {}): Promise<void> {
    const text = (await exportThroughApi(table, { filter })).toString('utf8');
    const records = readCsv(text);
    expect(records).toEqual(await expectedRecords(table, filter));
    const labels = records.slice(1).map((r) => r[1]);
    expect(labels.slice(0, 7)).toEqual([...FORMULAS.map((f) => `'${f}`), PLAIN]);
    expect(text).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
    // No text cell starts like a formula any more; numbers keep their sign.
    const header = records[0]!.map(String);
    const column = (name: string) => records.slice(1).map((r) => r[header.indexOf(name)]);
    for (const name of header) {
      for (const field of column(name)) {
        if (field === null) continue;
        if (TEXT_COLUMNS.has(name)) expect(field).not.toMatch(FORMULA_START);
        else expect(field).toMatch(/^-?\d/);
      }
    }
    expect(column('qty')).toContain('-5');
    expect(column('amount')).toContain('-1.50');
    expect(column('note')).toContain("'-1");
    expect(column('code')[0]).toMatch(/^'=A1/);
  }

  it('CSV of a whole table (the engine writes it where it can): formula cells quoted, numbers untouched', async () => {
    await expectSafeCsv('formula_cells');
  });

  it('CSV of a filtered export (values bound: rows through the cursor on PostgreSQL)', async () => {
    await expectSafeCsv('formula_cells', { grp: 'g' });
  });

  it('CSV of a table with a float column (rows through csv-stringify on every engine)', async () => {
    await expectSafeCsv('formula_floats');
    const text = (await exportThroughApi('formula_floats')).toString('utf8');
    const records = readCsv(text);
    expect(records.slice(1).map((r) => r.at(-1))).toContain('-1.5');
  });

  it('CSV of a table with a hostile name', async () => {
    const hostile = target.tables.find((t) => t.startsWith('semi;colon'))!;
    const records = readCsv((await exportThroughApi(hostile)).toString('utf8'));
    expect(records.slice(1).map((r) => r.slice(1))).toEqual([
      [`${hostile} one`, 'a'],
      [`${hostile} two`, 'b'],
      [`${hostile} three`, 'c'],
      [`'${FORMULAS[0]}`, "'-1"],
      ["'@cmd", "'+x"],
    ]);
    await target.expectCanaryIntact();
  });

  it('XLSX holds the text as strings, never formulas; JSON Lines holds the values unchanged', async () => {
    const source = await target.engine.table(target.schema, 'formula_cells');
    const rows = await rowsThroughPages(target.engine, source, { orderBy: 'id' });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(
      (await exportThroughApi('formula_cells', { format: 'xlsx' })) as unknown as ArrayBuffer,
    );
    const sheet = workbook.worksheets[0]!;
    const labels: unknown[] = [];
    sheet.eachRow((row, number) => {
      if (number === 1) return;
      const cell = row.getCell(2);
      if (cell.value !== null) expect(cell.type, String(cell.value)).toBe(ExcelJS.ValueType.String);
      labels.push(cell.value);
    });
    // A formula cell would read back as { formula: … }; XML turns the lone CR into a line feed.
    expect(labels.slice(0, 7)).toEqual([...FORMULAS.slice(0, 5), '\nx', PLAIN]);

    const lines = (await exportThroughApi('formula_cells', { format: 'jsonl' }))
      .toString('utf8')
      .trimEnd()
      .split('\n');
    expect(lines.map((line) => JSON.parse(line) as Row)).toEqual(rows);
  });

  it('leaves the canary alone and the server healthy', async () => {
    await target.expectCanaryIntact();
    await expectHealthy(target);
  });
});
