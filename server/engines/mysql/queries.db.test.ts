import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineAdapter } from '#server/engines/adapter.ts';
import type { DynamicSchema } from '#server/engines/engine.ts';
import { loadChinook } from '#server/test/chinook.ts';
import type { TestDatabase } from '#server/test/server-databases.ts';
import { mysqlAdapter } from './adapter.ts';
import { openMysql } from './connect.ts';

const options = { statementTimeoutMs: 30_000, poolSize: 3 };

describe('MySQL paging and prefix search', () => {
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

  const names = async (statement: ReturnType<typeof sql<{ Name: string }>>) =>
    (await statement.execute(db)).rows.map((row) => row.Name);

  it('pages with LIMIT and OFFSET', async () => {
    const page = adapter.limitOffset(3, 2);
    expect(page.compile(db).sql).toBe('limit ? offset ?');
    expect(await names(sql<{ Name: string }>`select Name from Genre order by GenreId ${page}`)).toEqual([
      'Metal',
      'Alternative & Punk',
      'Rock And Roll',
    ]);
    expect(
      await names(
        sql<{ Name: string }>`select Name from Genre order by GenreId ${adapter.limitOffset(2, 24)}`,
      ),
    ).toEqual(['Opera']);
  });

  it('finds names starting with a prefix, case-insensitively under the column collation', async () => {
    const startsWith = (prefix: string) =>
      names(
        sql<{
          Name: string;
        }>`select Name from Artist where ${adapter.textStartsWith(sql.id('Name'), prefix)} order by Name`,
      );
    expect(await startsWith('AC/')).toEqual(['AC/DC']);
    expect(await startsWith('ac/')).toEqual(['AC/DC']);
    expect(await startsWith('Aero')).toEqual(['Aerosmith', "Aerosmith & Sierra Leone's Refugee Allstars"]);
    expect(await startsWith('%')).toEqual([]);
    expect(await startsWith('_')).toEqual([]);
    expect((await startsWith('')).length).toBe(275);
    const compiled = adapter.textStartsWith(sql.id('Name'), '50%_off!').compile(db);
    expect(compiled.sql).toBe("`Name` like ? escape '!'");
    expect(compiled.parameters).toEqual(['50!%!_off!!%']);
  });

  it('takes %, _, ! and \\ in the term literally', async () => {
    await sql`create table marks (id int primary key, label varchar(20), key label_key (label))`.execute(db);
    const labels = ['a%b', 'a_b', 'a!b', 'a\\b', 'axb', "a'b", 'a%'];
    await sql`insert into marks values ${sql.join(labels.map((label, i) => sql`(${i}, ${label})`))}`.execute(
      db,
    );
    const found = async (prefix: string) =>
      (
        await sql<{
          label: string;
        }>`select label from marks where ${adapter.textStartsWith(sql.id('label'), prefix)} order by id`.execute(
          db,
        )
      ).rows.map((row) => row.label);
    expect(await found('a%')).toEqual(['a%b', 'a%']);
    expect(await found('a_')).toEqual(['a_b']);
    expect(await found('a!')).toEqual(['a!b']);
    expect(await found('a\\')).toEqual(['a\\b']);
    expect(await found("a'")).toEqual(["a'b"]);
    expect(await found('a')).toHaveLength(7);
  });

  it('is answered from the index on a 60,000-row table (a range scan)', async () => {
    await sql`create table people (id int not null auto_increment primary key, name varchar(50) not null, note varchar(20), key name_key (name))`.execute(
      db,
    );
    await sql`
      insert into people (name, note)
      with recursive n (i) as (select 0 union all select i + 1 from n where i < 999),
                     m (j) as (select 0 union all select j + 1 from m where j < 59)
      select concat('person ', lpad(j * 1000 + i, 6, '0')), 'x' from m cross join n`.execute(db);
    await sql`analyze table people`.execute(db);
    const total = await sql<{ n: number }>`select count(*) as n from people`.execute(db);
    expect(Number(total.rows[0]?.n)).toBe(60_000);
    const predicate = adapter.textStartsWith(sql.id('name'), 'person 0123');
    const plan = await sql<Record<string, unknown>>`explain select * from people where ${predicate}`.execute(
      db,
    );
    expect(plan.rows).toHaveLength(1);
    expect(plan.rows[0]).toMatchObject({ type: 'range', key: 'name_key' });
    expect(Number(plan.rows[0]?.rows)).toBeLessThan(1000);
    const { rows } = await sql<{ n: number }>`select count(*) as n from people where ${predicate}`.execute(
      db,
    );
    expect(Number(rows[0]?.n)).toBe(100);
  });
});
