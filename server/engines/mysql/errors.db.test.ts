import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineAdapter } from '#server/engines/adapter.ts';
import type { DynamicSchema } from '#server/engines/engine.ts';
import { EngineError } from '#server/engines/engine-error.ts';
import { loadChinook } from '#server/test/chinook.ts';
import { mysqlServerUrl, type TestDatabase } from '#server/test/server-databases.ts';
import { mariaDbWithReturning, mysqlAdapter } from './adapter.ts';
import { openMysql } from './connect.ts';

const options = { statementTimeoutMs: 10_000, poolSize: 3 };

/** The error a statement fails with, as the adapter explains it. */
async function explained(
  adapter: EngineAdapter,
  work: Promise<unknown>,
): Promise<{ status: number; message: string } | null> {
  try {
    await work;
  } catch (error) {
    const explanation = adapter.explainError(error);
    if (explanation === null) throw error;
    expect(explanation).toBeInstanceOf(EngineError);
    return { status: explanation.statusCode, message: explanation.message };
  }
  throw new Error('the statement did not fail');
}

describe('MySQL errors as messages', () => {
  let chinook: TestDatabase;
  let db: Kysely<DynamicSchema>;
  let adapter: EngineAdapter;

  beforeAll(async () => {
    chinook = await loadChinook('mysql');
    db = openMysql(chinook.url, options);
    adapter = mysqlAdapter(db, { name: 'chinook', ...options });
  });
  afterAll(async () => {
    await db?.destroy();
    await chinook?.drop();
  });

  it('explains a duplicate key, naming the key and the value', async () => {
    expect(
      await explained(adapter, sql`insert into Genre (GenreId, Name) values (1, 'Again')`.execute(db)),
    ).toEqual({
      status: 409,
      message: "'1' already exists in the primary key.",
    });
    await sql`create unique index media_type_name on MediaType (Name)`.execute(db);
    expect(
      await explained(adapter, sql`insert into MediaType (Name) values ('AAC audio file')`.execute(db)),
    ).toEqual({
      status: 409,
      message: "'AAC audio file' already exists in the unique key media_type_name.",
    });
  });

  it('explains both sides of a foreign key', async () => {
    expect(
      await explained(adapter, sql`insert into Album (Title, ArtistId) values ('Nobody', 99999)`.execute(db)),
    ).toEqual({
      status: 400,
      message: 'The ArtistId given does not exist in Artist.',
    });
    expect(
      await explained(adapter, sql`update Customer set SupportRepId = 99 where CustomerId = 1`.execute(db)),
    ).toEqual({
      status: 400,
      message: 'The SupportRepId given does not exist in Employee (as EmployeeId).',
    });
    expect(await explained(adapter, sql`delete from Artist where ArtistId = 1`.execute(db))).toEqual({
      status: 409,
      message:
        'This row is still referenced by rows of Album (FK_AlbumArtistId); change or delete those first.',
    });
  });

  it('explains a missing required value and a value too long', async () => {
    expect(
      await explained(adapter, sql`insert into Album (Title, ArtistId) values (null, 1)`.execute(db)),
    ).toEqual({
      status: 400,
      message: 'Title is required.',
    });
    expect(await explained(adapter, sql`insert into Album (ArtistId) values (1)`.execute(db))).toEqual({
      status: 400,
      message: 'Title is required.',
    });
    expect(
      await explained(adapter, sql`insert into Genre (Name) values (${'x'.repeat(121)})`.execute(db)),
    ).toEqual({
      status: 400,
      message: 'Name is too long.',
    });
  });

  it('explains bad numbers and dates, naming the column', async () => {
    const track = (column: string, value: string | number) =>
      sql`update Track set ${sql.id(column)} = ${value} where TrackId = 1`.execute(db);
    expect(await explained(adapter, track('Milliseconds', 'abc'))).toEqual({
      status: 400,
      message: "Milliseconds: 'abc' is not a valid integer.",
    });
    expect(await explained(adapter, track('Milliseconds', 99999999999))).toEqual({
      status: 400,
      message: 'Milliseconds is out of range.',
    });
    expect(await explained(adapter, track('UnitPrice', 123456789012))).toEqual({
      status: 400,
      message: 'UnitPrice is out of range.',
    });
    expect(
      await explained(
        adapter,
        sql`update Invoice set InvoiceDate = ${'2024-13-45 10:00'} where InvoiceId = 1`.execute(db),
      ),
    ).toEqual({ status: 400, message: "InvoiceDate: '2024-13-45 10:00' is not a valid datetime." });
  });

  it('cancels a statement at the timeout and says so (504)', async () => {
    const quick = openMysql(chinook.url, { statementTimeoutMs: 1000, poolSize: 1 });
    try {
      const quickAdapter = mysqlAdapter(quick, { name: 'chinook', statementTimeoutMs: 1000 });
      // A minute's sleep outlasts the test: only the statement timeout ends it (the 504 says so), however busy the
      // machine is.
      expect(await explained(quickAdapter, sql`select sleep(60) as slept`.execute(quick))).toEqual({
        status: 504,
        message: 'The database did not answer within 1 second; narrow the search or try again.',
      });
      // The connection survives and keeps its settings.
      const { rows } = await sql<{
        limit_seconds: number;
      }>`select @@session.max_statement_time as limit_seconds`.execute(quick);
      expect(Number(rows[0]?.limit_seconds)).toBe(1);
    } finally {
      await quick.destroy();
    }
  });

  it('honours a timeout in fractions of a second (MariaDB takes seconds with decimals)', async () => {
    const quick = openMysql(chinook.url, { statementTimeoutMs: 500, poolSize: 1 });
    try {
      const quickAdapter = mysqlAdapter(quick, { name: 'chinook', statementTimeoutMs: 500 });
      expect(await explained(quickAdapter, sql`select sleep(60) as slept`.execute(quick))).toEqual({
        status: 504,
        message: 'The database did not answer within 0.5 seconds; narrow the search or try again.',
      });
    } finally {
      await quick.destroy();
    }
  });

  it('says an unreachable database or a failed sign-in is not reachable (503), naming no host', async () => {
    const cases = [
      'mysql://root@127.0.0.1:1/nothing',
      `${mysqlServerUrl.replace(/\/?$/, '/')}no_such_database_here`,
      mysqlServerUrl.replace('//root@', '//nobody_here:wrong@'),
    ];
    for (const url of cases) {
      const down = openMysql(url, { statementTimeoutMs: 1000, poolSize: 1 });
      try {
        const downAdapter = mysqlAdapter(down, { name: 'elsewhere', statementTimeoutMs: 1000 });
        const result = await explained(downAdapter, sql`select 1`.execute(down));
        expect(result).toEqual({
          status: 503,
          message: 'The database elsewhere is not reachable right now.',
        });
      } finally {
        await down.destroy();
      }
    }
  });

  it('leaves errors it does not know to the caller', () => {
    expect(adapter.explainError(new Error('something else'))).toBeNull();
    expect(
      adapter.explainError({ errno: 1064, sqlMessage: 'You have an error in your SQL syntax' }),
    ).toBeNull();
    expect(adapter.explainError('text')).toBeNull();
  });
});

describe('MySQL 8 error texts', () => {
  const adapter = mysqlAdapter(openMysql('mysql://root@127.0.0.1:1/unused', options), {
    name: 'mysql8',
    ...options,
  });
  const explain = (errno: number, sqlMessage: string) => {
    const explanation = adapter.explainError({ errno, sqlMessage, code: 'ER_X' });
    return explanation && { status: explanation.statusCode, message: explanation.message };
  };
  afterAll(() => adapter.db.destroy());

  it('reads the MySQL 8 spellings of the same errors', () => {
    expect(explain(1062, "Duplicate entry 'Rock' for key 'Genre.genre_name'")).toEqual({
      status: 409,
      message: "'Rock' already exists in the unique key genre_name.",
    });
    expect(explain(1366, "Incorrect integer value: 'abc' for column 'Milliseconds' at row 1")).toEqual({
      status: 400,
      message: "Milliseconds: 'abc' is not a valid integer.",
    });
    expect(
      explain(3024, 'Query execution was interrupted, maximum statement execution time exceeded'),
    ).toEqual({
      status: 504,
      message: 'The database did not answer within 10 seconds; narrow the search or try again.',
    });
    expect(
      explain(
        1452,
        'Cannot add or update a child row: a foreign key constraint fails (`chinook`.`Album`, CONSTRAINT `FK_AlbumArtistId` FOREIGN KEY (`ArtistId`) REFERENCES `Artist` (`ArtistId`))',
      ),
    ).toEqual({ status: 400, message: 'The ArtistId given does not exist in Artist.' });
    expect(explain(3819, "Check constraint 'price_positive' is violated.")).toEqual({
      status: 400,
      message: 'A value breaks the check price_positive.',
    });
  });

  it('tells MariaDB with RETURNING from MySQL', () => {
    expect(mariaDbWithReturning('10.11.19-MariaDB-0+deb12u1')).toBe(true);
    expect(mariaDbWithReturning('10.4.32-MariaDB')).toBe(false);
    expect(mariaDbWithReturning('11.4.2-MariaDB')).toBe(true);
    expect(mariaDbWithReturning('8.0.36')).toBe(false);
    expect(mariaDbWithReturning('5.5.5-10.11.6-MariaDB')).toBe(true);
  });
});
