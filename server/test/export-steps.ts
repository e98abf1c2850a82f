import { expect } from 'vitest';
import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import type { ExportStatus } from '#common/contract/exports.ts';
import {
  encodeBody,
  type CellValue,
  type Column,
  type Filter,
  type Row,
  type Table,
} from '#common/contract/sql.ts';
import type { DatabaseEngine, EngineKind } from '#server/engines/engine.ts';
import type { TestUser } from '#server/test/factories.ts';
import type { TestDatabase } from '#server/test/server-databases.ts';
import type { TestApp } from '#server/test/test-app.ts';

/*
 * Helpers of the export tests: an RFC 4180 reader (csv-parse is not installed), the rows of a table read through
 * the engine's pages (what an export must equal), a table of awkward values per engine, and the HTTP round trip
 * start → status → download.
 */

export type Kind = Exclude<EngineKind, 'mssql'>;

/** Chinook names per engine: PascalCase, except snake_case on PostgreSQL. */
export const chinookName = (kind: Kind, pascal: string) =>
  kind === 'postgres' ? pascal.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase() : pascal;

export const schemaOf = (kind: Kind, database: TestDatabase) =>
  kind === 'postgres' ? 'public' : kind === 'sqlite' ? 'main' : database.name;

/**
 * Reads RFC 4180 CSV: records end at CRLF or LF outside quotes, "" inside quotes is a quote. An unquoted empty
 * field reads as null and a quoted one ("") as the empty string, the distinction DBUI's CSV keeps.
 */
export function readCsv(text: string): (string | null)[][] {
  const records: (string | null)[][] = [];
  let record: (string | null)[] = [];
  let field = '';
  let quoted = false;
  let wasQuoted = false;
  let at = 0;
  const endField = () => {
    record.push(wasQuoted || field !== '' ? field : null);
    field = '';
    wasQuoted = false;
  };
  while (at < text.length) {
    const c = text[at] ?? '';
    if (quoted) {
      if (c === '"' && text[at + 1] === '"') {
        field += '"';
        at += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else field += c;
      at++;
      continue;
    }
    if (c === '"') {
      if (field !== '') throw new Error(`a quote inside an unquoted field at ${at}`);
      quoted = true;
      wasQuoted = true;
    } else if (c === ',') endField();
    else if (c === '\n' || (c === '\r' && text[at + 1] === '\n')) {
      endField();
      records.push(record);
      record = [];
      if (c === '\r') at++;
    } else field += c;
    at++;
  }
  if (quoted) throw new Error('the file ends inside a quoted field');
  if (field !== '' || wasQuoted || record.length > 0) {
    endField();
    records.push(record);
  }
  return records;
}

/** A wire value as DBUI's CSV writes it (null stays null: an empty unquoted field). */
export function csvField(value: CellValue | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return String(value);
}

/** A cell of a column as DBUI's CSV writes it: text of a text column (Text or Other) that a spreadsheet would read
 * as a formula (= + - @ tab CR) with a leading single quote (OWASP), everything else as csvField writes it. */
export function csvCell(column: Pick<Column, 'typeGroup'>, value: CellValue | undefined): string | null {
  const text = ['Text', 'Other'].includes(column.typeGroup);
  if (text && typeof value === 'string' && /^[=+\-@\t\r]/.test(value)) return `'${value}`;
  return csvField(value);
}

/** Every row of the filter in the order, read through the engine's pages (100 a page). */
export async function rowsThroughPages(
  engine: DatabaseEngine,
  table: Table,
  query: { filter?: Filter; orderBy?: string | null } = {},
): Promise<Row[]> {
  const rows: Row[] = [];
  for (let page = 1; ; page++) {
    const result = await engine.page(table, {
      filter: query.filter ?? {},
      orderBy: query.orderBy ?? null,
      page,
      pageSize: 100,
    });
    rows.push(...result.results);
    if (result.results.length < 100) return rows;
  }
}

/** The awkward values every export must carry unchanged: nulls, unicode, quotes, commas, newlines, an empty string,
 * binary (with bytes that are not UTF-8) and numbers past 2^53. */
export async function createOddValues(kind: Kind, engine: DatabaseEngine): Promise<void> {
  const types: Record<Kind, Record<string, string>> = {
    postgres: {
      amount: 'numeric(30,2)',
      big: 'bigint',
      data: 'bytea',
      flag: 'boolean',
      ratio: 'double precision',
      at: 'timestamptz',
    },
    mysql: {
      amount: 'decimal(30,2)',
      big: 'bigint',
      data: 'blob',
      flag: 'bit(1)',
      ratio: 'double',
      at: 'datetime(6)',
    },
    sqlite: { amount: 'text', big: 'integer', data: 'blob', flag: 'boolean', ratio: 'real', at: 'text' },
  };
  const t = types[kind];
  await sql
    .raw(
      `create table odd_values (id integer primary key, label text, note varchar(100), amount ${t.amount}, big ${t.big}, data ${t.data}, flag ${t.flag}, ratio ${t.ratio}, at ${t.at})`,
    )
    .execute(engine.db);
  const bytes = Buffer.from([0, 1, 2, 0x22, 0x2c, 0x0a, 0xff, 0xfe, 0x80]);
  const rows: Record<string, unknown>[] = [
    { id: 1 },
    {
      id: 2,
      label: 'Ünïcødé ✓ 日本語 🎉',
      note: 'comma, "quotes" and more',
      amount: '12345678901234567890.12',
      big: 9007199254740993n,
      data: bytes,
      flag: true,
      ratio: 0.1,
      at: kind === 'sqlite' ? '2024-01-02T03:04:05.123456Z' : '2024-01-02 03:04:05.123456',
    },
    {
      id: 3,
      label: 'line1\nline2\r\nline3',
      note: '',
      amount: '-0.50',
      big: -9223372036854775807n,
      data: Buffer.alloc(0),
      flag: false,
      ratio: -1e-7,
      at: kind === 'sqlite' ? '1999-12-31T23:59:59Z' : '1999-12-31 23:59:59',
    },
    {
      id: 4,
      label: '\\.',
      note: '  leading and trailing  ',
      ratio: 1e21,
      big: 0n,
      data: Buffer.from('plain'),
    },
    { id: 5, label: '=1+2', note: '"', amount: '0.00', big: 9223372036854775807n },
  ];
  for (const row of rows) {
    const names = Object.keys(row);
    const values = names.map((name) => {
      const value = row[name];
      if (kind === 'mysql' && name === 'flag') return value ? 1 : 0;
      if (kind === 'sqlite' && typeof value === 'boolean') return value ? 1 : 0;
      return value;
    });
    await sql`insert into ${sql.id('odd_values')} (${sql.join(names.map((n) => sql.id(n)))}) values (${sql.join(values)})`.execute(
      engine.db,
    );
  }
}

export interface Envelope<T> {
  isSuccess: boolean;
  data: T;
  message: string | null;
}

/** POSTs an export start with the spec's encoded filter; answers the response. */
export function startExport(
  t: TestApp,
  user: TestUser,
  tableUrl: string,
  options: { filter?: Filter; orderBy?: string; format?: string; bom?: boolean } = {},
): Promise<LightMyRequestResponse> {
  const query = new URLSearchParams();
  if (options.orderBy) query.set('orderBy', options.orderBy);
  if (options.format) query.set('format', options.format);
  if (options.bom) query.set('bom', 'true');
  return t.app.inject({
    method: 'POST',
    url: `${tableUrl}/export${query.size ? `?${query}` : ''}`,
    headers: { ...user.headers, 'content-type': 'text/plain' },
    payload: encodeBody(options.filter ?? {}),
  });
}

/** Reads the status once. */
export async function readStatus(
  t: TestApp,
  user: TestUser,
  tableUrl: string,
  id: string,
): Promise<Envelope<ExportStatus>> {
  const response = await t.app.inject({
    method: 'GET',
    url: `${tableUrl}/export/${id}`,
    headers: user.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Envelope<ExportStatus>>();
}

/** Polls the status until the export has ended; answers every status read. */
export async function waitForExport(
  t: TestApp,
  user: TestUser,
  tableUrl: string,
  id: string,
  everyMs = 20,
  timeoutMs = 60_000,
): Promise<Envelope<ExportStatus>[]> {
  const reads: Envelope<ExportStatus>[] = [];
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const read = await readStatus(t, user, tableUrl, id);
    reads.push(read);
    if (!read.data.inProgress) return reads;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`export ${id} did not end within ${timeoutMs} ms`);
}

/** Starts an export, waits for it, and downloads the file; answers the file and the last status. */
export async function exportAndDownload(
  t: TestApp,
  user: TestUser,
  tableUrl: string,
  options: Parameters<typeof startExport>[3] = {},
): Promise<{ body: Buffer; status: ExportStatus; response: LightMyRequestResponse }> {
  const started = await startExport(t, user, tableUrl, options);
  expect(started.statusCode, started.body).toBe(202);
  const { id } = started.json<Envelope<{ id: string }>>().data;
  const reads = await waitForExport(t, user, tableUrl, id);
  const last = reads.at(-1);
  if (!last?.data.url) throw new Error(`export ${id} ended without a download link: ${JSON.stringify(last)}`);
  expect(last.isSuccess, last.message ?? '').toBe(true);
  expect(last.data.url).toMatch(new RegExp(`^/api/exports/${id}/file\\?t=[A-Za-z0-9_-]{43}$`));
  const response = await t.app.inject({ method: 'GET', url: last.data.url });
  expect(response.statusCode, response.body).toBe(200);
  return { body: response.rawPayload, status: last.data, response };
}
