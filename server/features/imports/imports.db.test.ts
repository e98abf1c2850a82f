import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  importMessages as im,
  type ImportFailure,
  type ImportPreview,
  type ImportStatus,
} from '#common/contract/imports.ts';
import { tablePath } from '#common/links.ts';
import { connectDatabase } from '#server/engines/connect.ts';
import type { DatabaseEngine, EngineKind } from '#server/engines/engine.ts';
import { buildAdmin, buildUser, type TestUser } from '#server/test/factories.ts';
import {
  createMysqlDatabase,
  createPostgresDatabase,
  type TestDatabase,
} from '#server/test/server-databases.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';
import { importsFolder } from './import-files.ts';

/*
 * Imports over HTTP (issue 39, decision 0069) on SQLite, PostgreSQL and MariaDB (ENGINES=… to choose): uploads as
 * multipart, the preview's detection and mapping, and dry runs that name every failing row, on a track table with a
 * key, a NOT NULL column without default, a short text, a whole number and a foreign key to artist. Batches of 3
 * rows, so the checks that ask the database (duplicates, keys, foreign keys) span several batches.
 */

type Kind = Exclude<EngineKind, 'mssql'>;
const chosen = (process.env.ENGINES ?? 'sqlite,postgres,mysql').split(',').map((e) => e.trim()) as Kind[];

function schemaStatements(): string[] {
  return [
    'create table artist (id integer not null primary key, name varchar(50) not null)',
    'create table track (TrackId bigint not null primary key, Name varchar(10) not null, Milliseconds integer, ' +
      'ArtistId integer, Note varchar(20), Price decimal(5,2) not null default 0, Code varchar(10), ' +
      'constraint fk_track_artist foreign key (ArtistId) references artist (id), ' +
      'constraint uq_track_code unique (Code))',
    "insert into artist (id, name) values (1, 'One'), (2, 'Two')",
    "insert into track (TrackId, Name, Milliseconds, ArtistId, Code) values (1, 'Intro', 10, 1, 'C1')",
  ];
}

interface Envelope<T> {
  isSuccess: boolean;
  data: T;
  message: string | null;
}

/** A multipart/form-data body: the file part and text parts. */
function multipart(parts: { name: string; value: string | Buffer; filename?: string }[]) {
  const boundary = `----dbui${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const file = part.filename === undefined ? '' : `; filename="${part.filename}"`;
    const type = part.filename === undefined ? '' : 'Content-Type: application/octet-stream\r\n';
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${file}\r\n${type}\r\n`,
      ),
    );
    chunks.push(Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

/** The dry run's file: each row's fate is in its comment, the row numbers are the file's data rows. */
const DRY_RUN_CSV = [
  'TrackId,Name,Milliseconds,ArtistId,Note',
  '20,Good,100,1,fine', // 1: inserted
  '21,Bad,abc,1,x', // 2: Milliseconds is not a number
  '22,Way too long name,5,1,x', // 3: Name longer than 10
  '23,,5,1,x', // 4: Name empty (NOT NULL)
  '020,Again,5,1,x', // 5: the key of row 1 again (020 is 20)
  '1,Exists,5,1,x', // 6: the key is in the table
  '24,Orphan,5,99,x', // 7: no artist 99
  '25,Fine,,2,', // 8: inserted (no milliseconds, no note)
].join('\n');

describe.each(chosen)('imports on %s', (kind) => {
  const folder = tempDir();
  let database: TestDatabase | undefined;
  let engine: DatabaseEngine;
  let t: TestApp;
  let schema: string;
  let url: string;
  let admin: TestUser;
  let editor: TestUser;
  let otherEditor: TestUser;
  let reader: TestUser;
  /** The cancel test's hold: a run waits before this batch until released. */
  let hold: { batch: number; reached: () => void; release: Promise<void> } | null = null;
  /** The table's names as the engine's catalog spells them (PostgreSQL folds unquoted names to lower case). */
  const named = (name: string) => (kind === 'postgres' ? name.toLowerCase() : name);

  const at = (rest: string) => `/api/sql/shop/${encodeURIComponent(schema)}/track/import${rest}`;
  const upload = (
    user: TestUser,
    file: string | Buffer,
    fileName: string,
    fields: Record<string, string> = {},
    app: TestApp = t,
  ): Promise<LightMyRequestResponse> => {
    const body = multipart([
      ...Object.entries(fields).map(([name, value]) => ({ name, value })),
      { name: 'file', value: file, filename: fileName },
    ]);
    return app.app.inject({
      method: 'POST',
      url: at(''),
      headers: { ...user.headers, 'content-type': body.type },
      payload: body.payload,
    });
  };
  async function uploaded(file: string | Buffer, fileName: string, fields: Record<string, string> = {}) {
    const answer = await upload(editor, file, fileName, fields);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<Envelope<{ id: string }>>().data.id;
  }
  const get = (user: TestUser, rest: string) =>
    t.app.inject({ method: 'GET', url: at(rest), headers: user.headers });
  const post = (user: TestUser, rest: string, body?: unknown) =>
    t.app.inject({
      method: 'POST',
      url: at(rest),
      headers: { ...user.headers, 'content-type': 'application/json' },
      payload: JSON.stringify(body ?? {}),
    });
  async function preview(id: string): Promise<ImportPreview> {
    const answer = await get(editor, `/${id}/preview`);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<Envelope<ImportPreview>>().data;
  }
  /** A dry run to its end. */
  async function dryRun(
    id: string,
    mapping: Record<string, string>,
    mode: 'insert' | 'upsert' | 'skipExisting' = 'insert',
    user: TestUser = editor,
  ): Promise<ImportStatus> {
    const started = await post(user, `/${id}/run`, { mapping, mode, dryRun: true });
    expect(started.statusCode, started.body).toBe(202);
    return vi.waitFor(
      async () => {
        const answer = await get(user, `/${id}`);
        const status = answer.json<Envelope<ImportStatus>>().data;
        expect(status.inProgress).toBe(false);
        return status;
      },
      { timeout: 20_000, interval: 50 },
    );
  }
  const trackRows = async () =>
    Number((await sql.raw<{ n: unknown }>('select count(*) as n from track').execute(engine.db)).rows[0]?.n);

  beforeAll(async () => {
    if (kind === 'sqlite') {
      const file = path.join(folder.path, 'shop.db');
      new Database(file).close();
      url = `sqlite:${file}`;
    } else {
      database = kind === 'postgres' ? await createPostgresDatabase() : await createMysqlDatabase();
      url = database.url;
    }
    schema = kind === 'sqlite' ? 'main' : kind === 'postgres' ? 'public' : (database?.name ?? '');
    engine = await connectDatabase('shop', kind, url);
    for (const statement of schemaStatements()) await sql.raw(statement).execute(engine.db);
    await engine.catalog({ refresh: true });
    t = await buildTestApp({
      databases: [engine],
      imports: {
        batchSize: 3,
        beforeBatch: async (batch) => {
          if (hold && hold.batch === batch) {
            hold.reached();
            await hold.release;
          }
        },
      },
    });
    admin = await buildAdmin(t);
    const track = `shop/${schema}/track`;
    const links = [tablePath('shop', schema, 'track')];
    editor = await buildUser(t, { links, permissions: [{ table: track, canInsert: true }] });
    otherEditor = await buildUser(t, { links, permissions: [{ table: track, canInsert: true }] });
    reader = await buildUser(t, { links });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await database?.drop();
    folder.remove();
  });

  it('uploads a Latin-1 CSV with ; and previews it: detected options, rows as text, mapping by name', async () => {
    const text =
      'Track Id;name;MILLISECONDS;artist_id;Note;Extra\n10;Café;1000;1;"a;b";z\n11;Crème;;2;"";z\n';
    const id = await uploaded(Buffer.from(text, 'latin1'), 'tracks.csv');
    const answer = await preview(id);
    expect(answer.fileName).toBe('tracks.csv');
    expect(answer.size).toBe(Buffer.byteLength(text, 'latin1'));
    expect(answer.options).toEqual({
      format: 'csv',
      delimiter: ';',
      quote: '"',
      header: true,
      encoding: 'latin1',
    });
    expect(answer.fileColumns).toEqual(['Track Id', 'name', 'MILLISECONDS', 'artist_id', 'Note', 'Extra']);
    // An empty field is null, a quoted empty one an empty text.
    expect(answer.rows).toEqual([
      ['10', 'Café', '1000', '1', 'a;b', 'z'],
      ['11', 'Crème', null, '2', '', 'z'],
    ]);
    expect(answer.mapping).toEqual({
      'Track Id': named('TrackId'),
      name: named('Name'),
      MILLISECONDS: named('Milliseconds'),
      artist_id: named('ArtistId'),
      Note: named('Note'),
    });
    expect(answer.problems).toEqual([]);
    const byName = Object.fromEntries(answer.columns.map((column) => [column.name, column]));
    expect(byName[named('Name')]?.required).toBe(true);
    expect(byName[named('TrackId')]?.required).toBe(true);
    expect(byName[named('Price')]?.required).toBe(false);
    expect(byName[named('Note')]?.required).toBe(false);
  });

  it('names a required column the file leaves out, and refuses a run that leaves it out', async () => {
    const id = await uploaded('track_id,Milliseconds\n5,10\n', 'short.csv');
    const answer = await preview(id);
    expect(answer.options.delimiter).toBe(',');
    expect(answer.options.encoding).toBe('utf-8');
    expect(answer.mapping).toEqual({ track_id: named('TrackId'), Milliseconds: named('Milliseconds') });
    expect(answer.problems).toEqual([im.requiredUnmapped(named('Name'))]);
    const run = await post(editor, `/${id}/run`, { mapping: answer.mapping, mode: 'insert', dryRun: true });
    expect(run.statusCode, run.body).toBe(400);
    expect(run.json<Envelope<null>>().message).toBe(im.requiredUnmapped(named('Name')));
  });

  it('reads a JSON Lines file (with a BOM) and checks its values', async () => {
    const text = '\uFEFF{"TrackId": 30, "Name": "J", "ArtistId": 2}\n\n{"TrackId": "x", "Name": "K"}\n[1]\n';
    const id = await uploaded(text, 'tracks.jsonl');
    const answer = await preview(id);
    expect(answer.options.format).toBe('jsonl');
    expect(answer.fileColumns).toEqual(['TrackId', 'Name', 'ArtistId']);
    expect(answer.rows).toEqual([
      ['30', 'J', '2'],
      ['x', 'K', null],
      [null, null, null],
    ]);
    const status = await dryRun(id, answer.mapping);
    expect(status).toMatchObject({
      state: 'done',
      dryRun: true,
      inserted: 1,
      failed: 2,
      updated: 0,
      skipped: 0,
    });
    expect(status.errors.map((e) => [e.row, e.column])).toEqual([
      [2, named('TrackId')],
      [3, null],
    ]);
    expect(status.errors[0]?.message).toMatch(/"x" is not a number/);
  });

  it('dry-runs the whole file, naming every failing row, and writes nothing', async () => {
    const id = await uploaded(DRY_RUN_CSV, 'dry.csv');
    const { mapping } = await preview(id);
    const status = await dryRun(id, mapping);
    expect(status).toMatchObject({
      state: 'done',
      inProgress: false,
      percentageCompleted: 100,
      inserted: 2,
      updated: 0,
      skipped: 0,
      failed: 6,
      auditId: null,
      error: null,
    });
    const errors = status.errors.map((e: ImportFailure) => [e.row, e.column, e.message]);
    expect(errors).toEqual([
      [2, named('Milliseconds'), expect.stringMatching(/"abc" is not a number/)],
      [3, named('Name'), `${named('Name')} cannot be more than 10 characters.`],
      [4, named('Name'), `${named('Name')} cannot be empty: give it a value.`],
      [5, named('TrackId'), `The key {"${named('TrackId')}":"020"} is also on row 1 of the file.`],
      [6, named('TrackId'), `A row with the key {"${named('TrackId')}":"1"} is already in the table.`],
      [7, named('ArtistId'), `${named('ArtistId')}: "99" is not in artist (id).`],
    ]);
    expect(await trackRows()).toBe(1);

    // The report: every failure as CSV, in file order.
    const report = await get(editor, `/${id}/report`);
    expect(report.statusCode).toBe(200);
    expect(report.headers['content-type']).toMatch(/^text\/csv/);
    const lines = report.body.trim().split('\n');
    expect(lines[0]).toBe('row,column,message');
    expect(lines).toHaveLength(7);
    expect(lines[2]).toBe(`3,${named('Name')},${named('Name')} cannot be more than 10 characters.`);
    expect(lines[4]).toBe(
      `5,${named('TrackId')},"The key {""${named('TrackId')}"":""020""} is also on row 1 of the file."`,
    );

    // The other modes: the key in the table is skipped, or updated (an upsert needs the update right too).
    const skipping = await dryRun(id, mapping, 'skipExisting');
    expect(skipping).toMatchObject({ inserted: 2, skipped: 1, updated: 0, failed: 5 });
    const refused = await post(editor, `/${id}/run`, { mapping, mode: 'upsert', dryRun: true });
    expect(refused.statusCode).toBe(403);
    const upsertId = await (async () => {
      const answer = await upload(admin, DRY_RUN_CSV, 'dry.csv');
      return answer.json<Envelope<{ id: string }>>().data.id;
    })();
    const upserting = await dryRun(upsertId, mapping, 'upsert', admin);
    expect(upserting).toMatchObject({ inserted: 2, skipped: 0, updated: 1, failed: 5 });
  });

  it('answers XLSX with 400, and takes the format from a format part', async () => {
    const xlsx = await upload(editor, 'PK', 'book.xlsx');
    expect(xlsx.statusCode).toBe(400);
    expect(xlsx.json<Envelope<null>>().message).toMatch(/cannot be read as a zip archive/);
    const unknown = await upload(editor, 'a,b', 'data.bin');
    expect(unknown.json<Envelope<null>>().message).toBe(im.formatUnknown);
    const given = await upload(editor, 'a|b\n1|2\n', 'data.bin', { format: 'csv' });
    expect(given.statusCode, given.body).toBe(200);
  });

  it('keeps imports to their owner: another user gets 404 on every call; a reader cannot upload', async () => {
    const id = await uploaded(DRY_RUN_CSV, 'dry.csv');
    for (const answer of [
      await get(otherEditor, `/${id}`),
      await get(otherEditor, `/${id}/preview`),
      await get(otherEditor, `/${id}/report`),
      await post(otherEditor, `/${id}/cancel`),
      await post(otherEditor, `/${id}/run`, {
        mapping: { Name: named('Name') },
        mode: 'insert',
        dryRun: true,
      }),
    ]) {
      expect(answer.statusCode, answer.body).toBe(404);
      expect(answer.json<Envelope<null>>().message).toBe(im.notFound);
    }
    const refused = await upload(reader, DRY_RUN_CSV, 'dry.csv');
    expect(refused.statusCode).toBe(403);
    expect(refused.json<Envelope<null>>().message).toBe(
      'You do not have permission to add rows to that table.',
    );
  });

  it('refuses a file over IMPORT_MAX_BYTES with 413 and keeps nothing of it', async () => {
    // Its own connection: closing the app closes its databases.
    const small = await buildTestApp({
      databases: [await connectDatabase('shop', kind, url)],
      env: { IMPORT_MAX_BYTES: '100' },
    });
    try {
      const user = await buildAdmin(small);
      const answer = await upload(user, `TrackId,Name\n${'1,x\n'.repeat(100)}`, 'big.csv', {}, small);
      expect(answer.statusCode, answer.body).toBe(413);
      expect(answer.json<Envelope<null>>().message).toBe(im.tooLarge(100));
      const left = fs.existsSync(importsFolder(small.config.dataDir))
        ? fs.readdirSync(importsFolder(small.config.dataDir))
        : [];
      expect(left).toEqual([]);
      expect(await small.store.db.selectFrom('import_jobs').selectAll().execute()).toEqual([]);
    } finally {
      await small.close();
    }
  });

  it('detects tab and pipe delimiters, and takes one given', async () => {
    const tabbed = await preview(await uploaded('TrackId\tName\n1\ta,b\n2\tc\n', 'tracks.txt'));
    expect(tabbed.options.delimiter).toBe('\t');
    expect(tabbed.rows).toEqual([
      ['1', 'a,b'],
      ['2', 'c'],
    ]);
    const piped = await preview(await uploaded('TrackId|Name\n1|a;b\n2|c\n', 'tracks.csv'));
    expect(piped.options.delimiter).toBe('|');
    const given = await preview(
      await uploaded('a,b;c\n1,2;3\n', 'x.csv', { delimiter: ';', header: 'false' }),
    );
    expect(given.options).toMatchObject({ delimiter: ';', header: false });
    expect(given.fileColumns).toEqual(['Column 1', 'Column 2']);
    expect(given.rows).toEqual([
      ['a,b', 'c'],
      ['1,2', '3'],
    ]);
    const refused = await upload(editor, 'a\n', 'x.csv', { delimiter: ';;' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<Envelope<null>>().message).toBe(im.badOption('delimiter', 'one character (or tab)'));
  });

  it('fails a row with another number of fields, and stops on broken quoting naming its line', async () => {
    const id = await uploaded('TrackId,Name\n40,a\n41,b,extra\n42\n', 'fields.csv');
    const status = await dryRun(id, { TrackId: named('TrackId'), Name: named('Name') });
    expect(status).toMatchObject({ state: 'done', inserted: 1, failed: 2 });
    expect(status.errors).toEqual([
      { row: 2, column: null, message: 'The row has 3 fields; the header has 2.' },
      { row: 3, column: null, message: 'The row has 1 fields; the header has 2.' },
    ]);
    const broken = await uploaded('TrackId,Name\n40,a\n41,"b\n', 'broken.csv');
    const answer = await get(editor, `/${broken}/preview`);
    expect(answer.statusCode).toBe(400);
    expect(answer.json<Envelope<null>>().message).toMatch(
      /quoted field is never closed \(line \d+ of the file\)/,
    );
  });

  it('cancels a run after the batch in hand', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => `${100 + i},n${i}`).join('\n');
    const id = await uploaded(`TrackId,Name\n${rows}\n`, 'many.csv');
    let reached = () => {};
    let release = () => {};
    const atBatch = new Promise<void>((resolve) => (reached = resolve));
    hold = { batch: 2, reached, release: new Promise<void>((resolve) => (release = resolve)) };
    try {
      const started = await post(editor, `/${id}/run`, {
        mapping: { TrackId: named('TrackId'), Name: named('Name') },
        mode: 'insert',
        dryRun: true,
      });
      expect(started.statusCode, started.body).toBe(202);
      await atBatch;
      const again = await post(editor, `/${id}/run`, {
        mapping: { Name: named('Name') },
        mode: 'insert',
        dryRun: true,
      });
      expect(again.statusCode).toBe(409);
      const cancelled = await post(editor, `/${id}/cancel`);
      expect(cancelled.statusCode).toBe(200);
      expect(cancelled.json<Envelope<ImportStatus>>().data).toMatchObject({
        state: 'cancelled',
        inProgress: false,
        error: im.cancelled,
      });
    } finally {
      release();
      hold = null;
    }
    const status = await vi.waitFor(async () => {
      const answer = (await get(editor, `/${id}`)).json<Envelope<ImportStatus>>().data;
      expect(answer.state).toBe('cancelled');
      return answer;
    });
    // Two batches of three were checked before the hold.
    expect(status.inserted).toBe(6);
  });

  it('checks the other unique indexes: a value twice in the file, or already in the table for a new row', async () => {
    const id = await uploaded(
      'TrackId,Name,Code\n50,a,X1\n51,b,X1\n52,c,C1\n53,d,\n54,e,\n1,f,Z9\n',
      'codes.csv',
    );
    const mapping = { TrackId: named('TrackId'), Name: named('Name'), Code: named('Code') };
    const status = await dryRun(id, mapping, 'skipExisting');
    expect(status).toMatchObject({ state: 'done', inserted: 3, skipped: 1, failed: 2 });
    expect(status.errors).toEqual([
      {
        row: 2,
        column: named('Code'),
        message: `{"${named('Code')}":"X1"} is also on row 1 of the file, and must be unique.`,
      },
      {
        row: 3,
        column: named('Code'),
        message: `{"${named('Code')}":"C1"} is already in the table, and must be unique.`,
      },
    ]);
  });

  it('is described in OpenAPI, the upload as multipart', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, { summary: string; requestBody?: { content: object } }>>;
    }>();
    const base = '/api/sql/{db}/{schema}/{table}/import';
    expect(Object.keys(doc.paths[base]?.post?.requestBody?.content ?? {})).toEqual(['multipart/form-data']);
    expect(doc.paths[`${base}/{id}/preview`]?.get?.summary).toMatch(/proposed mapping/);
    expect(doc.paths[`${base}/{id}/run`]?.post?.summary).toMatch(/dry run/);
    expect(doc.paths[`${base}/{id}`]?.get).toBeDefined();
    expect(doc.paths[`${base}/{id}/cancel`]?.post).toBeDefined();
    expect(doc.paths[`${base}/{id}/report`]?.get).toBeDefined();
  });
});
