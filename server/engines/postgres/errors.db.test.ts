import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import type { EngineAdapter } from '#server/engines/adapter.ts';
import { EngineError } from '#server/engines/engine-error.ts';
import { defaultEngineOptions, type DynamicSchema } from '#server/engines/engine.ts';
import { loadChinook } from '#server/test/chinook.ts';
import type { TestDatabase } from '#server/test/server-databases.ts';
import { postgresAdapter } from './adapter.ts';
import { openPostgres } from './connect.ts';

/* explainError on errors the real server raises: each a status and a message without SQL. */

let database: TestDatabase;
let db: Kysely<DynamicSchema>;
let adapter: EngineAdapter;

/** The explanation of what `work` fails with. */
async function explained(work: Promise<unknown>, using: EngineAdapter = adapter) {
  const error = await work.then(
    () => {
      throw new Error('expected the database to refuse');
    },
    (failure: unknown) => failure,
  );
  const explanation = using.explainError(error);
  expect(explanation).toBeInstanceOf(EngineError);
  expect(explanation?.message).not.toMatch(
    /insert into|select |delete from|pg_sleep|\$\d|postgres:\/\/|127\.0\.0\.1|:1\b/i,
  );
  return { status: explanation?.statusCode, message: explanation?.message };
}

const insert = (table: string, values: Record<string, unknown>) =>
  adapter.insertRow(db, { schema: 'public', name: table }, values, []);

beforeAll(async () => {
  database = await loadChinook('postgres');
  db = openPostgres(database.url, defaultEngineOptions);
  adapter = postgresAdapter(db, defaultEngineOptions, 'chinook');
});
afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

describe('explainError', () => {
  it('names the column and value of a unique violation', async () => {
    expect(await explained(insert('playlist_track', { playlist_id: 1, track_id: 3402 }))).toEqual({
      status: 409,
      message: 'A row with playlist_id 1, track_id 3402 already exists.',
    });
    await sql`create unique index media_type_name on media_type (name)`.execute(db);
    expect(await explained(insert('media_type', { name: 'AAC audio file' }))).toEqual({
      status: 409,
      message: 'A row with name AAC audio file already exists.',
    });
  });

  it('says which reference fails, writing and deleting', async () => {
    expect(await explained(insert('album', { title: 'Nowhere', artist_id: 99999 }))).toEqual({
      status: 409,
      message: 'artist_id 99999 does not exist in artist.',
    });
    expect(await explained(sql`delete from artist where artist_id = ${1}`.execute(db))).toEqual({
      status: 409,
      message: 'This row is still used by album; delete those rows first.',
    });
  });

  it('names a required column', async () => {
    expect(await explained(insert('album', { title: null, artist_id: 1 }))).toEqual({
      status: 400,
      message: 'title is required.',
    });
  });

  it('gives the length limit of a value too long', async () => {
    expect(await explained(insert('media_type', { name: 'x'.repeat(121) }))).toEqual({
      status: 400,
      message: 'A value cannot be more than 120 characters.',
    });
  });

  it('explains malformed and out-of-range values', async () => {
    const track = { name: 'T', media_type_id: 1, milliseconds: 1, unit_price: '0.99' };
    expect(await explained(insert('track', { ...track, milliseconds: 'abc' }))).toEqual({
      status: 400,
      message: '"abc" is not a valid integer.',
    });
    expect(await explained(insert('track', { ...track, milliseconds: '99999999999' }))).toEqual({
      status: 400,
      message: '99999999999 is out of range for integer.',
    });
    expect(await explained(insert('track', { ...track, unit_price: '123456789012' }))).toEqual({
      status: 400,
      message: 'A number has more than 8 digits before the point.',
    });
    const invoice = { customer_id: 1, total: '1.00' };
    expect(await explained(insert('invoice', { ...invoice, invoice_date: 'soon' }))).toEqual({
      status: 400,
      message: '"soon" is not a valid timestamp.',
    });
    expect(await explained(insert('invoice', { ...invoice, invoice_date: '2024-02-30' }))).toEqual({
      status: 400,
      message: '"2024-02-30" is not a valid date or time.',
    });
  });

  it('refuses a value for a GENERATED ALWAYS identity', async () => {
    expect(await explained(insert('genre', { genre_id: 1000, name: 'x' }))).toEqual({
      status: 400,
      message: 'genre_id is set by the database and cannot be given a value.',
    });
  });

  it('turns a statement timeout into a 504', async () => {
    const options = { ...defaultEngineOptions, statementTimeoutMs: 300 };
    const slow = openPostgres(database.url, options);
    try {
      const impatient = postgresAdapter(slow, options, 'chinook');
      expect(await explained(sql`select pg_sleep(5)`.execute(slow), impatient)).toEqual({
        status: 504,
        message: 'The database did not answer within 0.3 seconds; narrow the search or try again.',
      });
    } finally {
      await slow.destroy();
    }
  });

  it('turns a refused connection and a missing database into a 503', async () => {
    const refused = openPostgres('postgres://postgres@127.0.0.1:1/chinook', defaultEngineOptions);
    const missing = openPostgres(
      database.url.replace(/\/[^/]+$/, '/no_such_database_here'),
      defaultEngineOptions,
    );
    try {
      for (const unreachable of [refused, missing]) {
        const unreachableAdapter = postgresAdapter(unreachable, defaultEngineOptions, 'chinook');
        expect(await explained(sql`select 1`.execute(unreachable), unreachableAdapter)).toEqual({
          status: 503,
          message: 'The database chinook is not reachable right now.',
        });
      }
    } finally {
      await refused.destroy();
      await missing.destroy();
    }
  });

  it('leaves errors it does not know alone', () => {
    expect(adapter.explainError(new Error('something else'))).toBeNull();
    expect(adapter.explainError('not an error')).toBeNull();
    expect(
      adapter.explainError(Object.assign(new Error('syntax error at or near "x"'), { code: '42601' })),
    ).toBeNull();
  });
});
