import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Table } from '#common/contract/sql.ts';
import type { EngineAdapter } from './adapter.ts';
import { compiledOnce } from './compiled-shapes.ts';
import type { DynamicSchema } from './engine.ts';

describe('compiledOnce', () => {
  const database = new SQLite(':memory:');
  database.exec(
    "create table t (id integer primary key, name text); insert into t values (1, 'a'), (2, null)",
  );
  const db = new Kysely<DynamicSchema>({ dialect: new SqliteDialect({ database }) });
  // compiledOnce uses the adapter's Kysely only: the rest of an adapter plays no part here.
  const adapter = { kind: 'sqlite', db } as unknown as EngineAdapter;
  const table = { schema: 'main', name: 't' } as Table;

  it('compiles a shape once and runs it with each call’s values in their places', async () => {
    let builds = 0;
    const after = (values: readonly unknown[]) =>
      compiledOnce(adapter, table, 'after', values, ([id]) => {
        builds += 1;
        return id === null ? sql`select id from t where id is null` : sql`select id from t where id > ${id}`;
      });
    const first = after([0]);
    const second = after([1]);
    expect(builds).toBe(1);
    expect(second.sql).toBe(first.sql);
    expect(second.parameters).toEqual([1]);
    expect((await db.executeQuery(first)).rows).toEqual([{ id: 1 }, { id: 2 }]);
    expect((await db.executeQuery(second)).rows).toEqual([{ id: 2 }]);

    // A null makes another shape; a table of a refreshed catalog (another object) compiles again.
    expect(after([null]).sql).toBe('select id from t where id is null');
    expect(builds).toBe(2);
    compiledOnce(adapter, { ...table }, 'after', [5], ([id]) => {
      builds += 1;
      return sql`select id from t where id > ${id}`;
    });
    expect(builds).toBe(3);
  });

  it('keeps the values a shape binds itself, and places each call’s values among them', () => {
    const between = (values: readonly unknown[]) =>
      compiledOnce(
        adapter,
        table,
        'between',
        values,
        ([low, high]) => sql`select ${'x'} as x, ${low} as a, ${high} as b`,
      );
    between(['a', 'b']);
    expect(between(['c', 'd']).parameters).toEqual(['x', 'c', 'd']);
  });
});
