import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  SqliteDialect,
  sql,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type UnknownRow,
} from 'kysely';
import { createMysqlDatabase, createPostgresDatabase } from '#server/test/server-databases.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import type { EngineAdapter } from './adapter.ts';
import { defaultEngineOptions, type DatabaseEngine, type DynamicSchema } from './engine.ts';
import { UNINDEXED_LABEL_ROWS } from './foreign-key-options.ts';
import { mysqlAdapter } from './mysql/adapter.ts';
import { openMysql } from './mysql/connect.ts';
import { postgresAdapter } from './postgres/adapter.ts';
import { openPostgres } from './postgres/connect.ts';
import { sqliteAdapter } from './sqlite/adapter.ts';
import { createTableEngine } from './table-engine.ts';

/*
 * What a page of foreign-key options costs on a big referenced table (docs/decisions/0047): every statement of a
 * call is run again under the engine's own measure of rows read (PostgreSQL EXPLAIN ANALYZE, MariaDB ANALYZE), or
 * its plan is read (SQLite EXPLAIN QUERY PLAN: no table scan, no sort of the whole table). 200,000 rows are enough for
 * the planners to choose as they would on ten million, and a full scan would read them all.
 */

type Kind = 'sqlite' | 'postgres' | 'mysql';
const chosen = (process.env.ENGINES ?? 'sqlite,postgres,mysql').split(',').map((e) => e.trim()) as Kind[];

const ROWS = 200_000;
/** Rows a call may read: the pages asked for here reach at most 150 options deep, plus the matches passed. */
const READ_BUDGET = 1_000;

/** Records every statement the engine runs, so the test can run it again under EXPLAIN. */
class StatementRecorder implements KyselyPlugin {
  statements: CompiledQuery[] = [];
  constructor(private readonly compile: (args: PluginTransformQueryArgs) => CompiledQuery) {}
  transformQuery(args: PluginTransformQueryArgs) {
    this.statements.push(this.compile(args));
    return args.node;
  }
  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}

interface Setup {
  db: Kysely<DynamicSchema>;
  adapter: (db: Kysely<DynamicSchema>) => EngineAdapter;
  ddl: string[];
  drop: () => Promise<void>;
}

async function setUp(kind: Kind): Promise<Setup> {
  const tables = (fill: string) => [
    'create table big_ref (id integer primary key, name varchar(60) not null)',
    fill.replace('%t', 'big_ref'),
    'create index ix_big_ref_name on big_ref (name)',
    'create table big_plain (id integer primary key, title varchar(60) not null)',
    fill.replace('%t', 'big_plain'),
    'create table big_use (id integer primary key, ref_id integer references big_ref (id), plain_id integer references big_plain (id))',
  ];
  if (kind === 'postgres') {
    const database = await createPostgresDatabase('dbui_fk_cost');
    return {
      db: openPostgres(database.url, defaultEngineOptions),
      adapter: (db) => postgresAdapter(db, defaultEngineOptions, 'cost'),
      ddl: [...tables(`insert into %t select g, 'n' || g from generate_series(1, ${ROWS}) g`), 'analyze'],
      drop: () => database.drop(),
    };
  }
  if (kind === 'mysql') {
    const database = await createMysqlDatabase('dbui_fk_cost');
    return {
      db: openMysql(database.url, defaultEngineOptions),
      adapter: (db) => mysqlAdapter(db, { name: 'cost', statementTimeoutMs: 15_000 }),
      ddl: [
        ...tables(`insert into %t select seq, concat('n', seq) from seq_1_to_${ROWS}`),
        'analyze table big_ref, big_plain',
      ],
      drop: () => database.drop(),
    };
  }
  const folder = tempDir('dbui-fk-cost-');
  const file = path.join(folder.path, 'cost.sqlite');
  const database = new SQLite(file);
  database.defaultSafeIntegers(true);
  return {
    db: new Kysely<DynamicSchema>({ dialect: new SqliteDialect({ database }) }),
    adapter: (db) => sqliteAdapter(db, file),
    ddl: [
      ...tables(
        `with recursive g(x) as (select 1 union all select x + 1 from g where x < ${ROWS}) insert into %t select x, 'n' || x from g`,
      ),
      'analyze',
    ],
    drop: () => {
      folder.remove();
      return Promise.resolve();
    },
  };
}

/** The rows the database read from the big tables to answer one statement, or, for SQLite, the plan's scans. */
async function rowsRead(kind: Kind, db: Kysely<DynamicSchema>, statement: CompiledQuery): Promise<number> {
  const again = (prefix: string) =>
    db.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(`${prefix} ${statement.sql}`, [...statement.parameters]),
    );
  if (kind === 'postgres') {
    const { rows } = await again('explain (analyze, format json)');
    let read = 0;
    const plan = rows[0]?.['QUERY PLAN'];
    walk(typeof plan === 'string' ? JSON.parse(plan) : plan, (node) => {
      if (typeof node['Relation Name'] !== 'string' || !String(node['Relation Name']).startsWith('big_'))
        return;
      const loops = Number(node['Actual Loops'] ?? 1);
      read += (Number(node['Actual Rows'] ?? 0) + Number(node['Rows Removed by Filter'] ?? 0)) * loops;
    });
    return read;
  }
  if (kind === 'mysql') {
    const { rows } = await again('analyze format=json');
    let read = 0;
    walk(JSON.parse(String(Object.values(rows[0] ?? {})[0])), (node) => {
      if (typeof node.table_name !== 'string' || !node.table_name.startsWith('big_')) return;
      read += Number(node.r_rows ?? 0) * Number(node.r_loops ?? 1);
    });
    return read;
  }
  // SQLite tells no counts, only its plan. A sort of the whole table reads every row; so does a walk of the table in
  // key order (a plain SCAN) that keeps only the rows whose label starts with the term. (A walk that only passes the
  // matches, the others' part, stops after its LIMIT, and an index walk reads the rows it returns.)
  const { rows } = await again('explain query plan');
  const details = rows.map((row) => String(row.detail));
  const filtersByLabel = /"(name|title)" >= \?/.test(statement.sql.replace(/not \([^)]*\)/g, ''));
  const whole = details.some(
    (detail) =>
      /USE TEMP B-TREE FOR ORDER BY/.test(detail) ||
      (filtersByLabel && /^SCAN (main\.)?big_\w+$/.test(detail)),
  );
  return whole ? ROWS : 0;
}

function walk(value: unknown, visit: (node: Record<string, unknown>) => void): void {
  if (Array.isArray(value)) value.forEach((item) => walk(item, visit));
  else if (value && typeof value === 'object') {
    visit(value as Record<string, unknown>);
    Object.values(value).forEach((item) => walk(item, visit));
  }
}

describe.each(chosen)('foreign-key options on a 200,000-row table (%s)', (kind) => {
  let setup: Setup;
  let engine: DatabaseEngine;
  let recorder: StatementRecorder;

  beforeAll(async () => {
    setup = await setUp(kind);
    for (const statement of setup.ddl) await sql.raw(statement).execute(setup.db);
    const db = setup.db;
    recorder = new StatementRecorder(({ node, queryId }) => db.getExecutor().compileQuery(node, queryId));
    engine = createTableEngine('cost', setup.adapter(db.withPlugin(recorder)));
  }, 180_000);
  afterAll(async () => {
    await engine?.close();
    await setup?.drop();
  });

  /** One page of options, and the most rows any of its statements read. */
  async function page(column: string, term: string, number: number) {
    const use = (await engine.catalog()).find((t) => t.name === 'big_use');
    if (!use) throw new Error('big_use is not in the catalog');
    recorder.statements = [];
    const options = await engine.foreignKeyOptions(use, column, { term, page: number });
    const statements = recorder.statements;
    let read = 0;
    for (const statement of statements) read += await rowsRead(kind, setup.db, statement);
    return { options, read, statements: statements.length };
  }

  it('reads a page of every option, of a prefix’s matches and of the rest after them from the indexes', async () => {
    expect((await engine.catalog()).find((t) => t.name === 'big_ref')?.numberOfRows).toBeGreaterThan(
      UNINDEXED_LABEL_ROWS,
    );
    for (const term of ['', 'n1234', '77', 'zzz']) {
      for (const number of [1, 2, 5, 6]) {
        const { options, read } = await page('ref_id', term, number);
        expect(read, `term ${JSON.stringify(term)}, page ${number}`).toBeLessThanOrEqual(READ_BUDGET);
        expect(options.results).toHaveLength(25);
        expect(options.hasMore).toBe(true);
      }
    }
    // n1234, n12340…n12349 and n123400…n123499 start with n1234: 111 matches, then the other rows.
    const first = (await page('ref_id', 'n1234', 1)).options.results;
    expect(first.every((o) => o.isMatch && o.label.startsWith('n1234'))).toBe(true);
    expect(first[0]).toEqual({ key: 1234, label: 'n1234', isMatch: true });
    const fifth = (await page('ref_id', 'n1234', 5)).options.results;
    expect(fifth.filter((o) => o.isMatch)).toHaveLength(11);
    expect(fifth.slice(11).every((o) => !o.isMatch && !o.label.startsWith('n1234'))).toBe(true);
    const sixth = (await page('ref_id', 'n1234', 6)).options.results;
    expect(sixth.some((o) => o.isMatch)).toBe(false);
    expect(sixth[0]?.label).not.toBe(fifth[11]?.label);
    // A key: that row first.
    expect((await page('ref_id', '77', 1)).options.results[0]).toEqual({
      key: 77,
      label: 'n77',
      isMatch: true,
    });
  });

  it('does not scan for an unindexed label on a big table: only the key matches', async () => {
    for (const number of [1, 6]) {
      const { options, read } = await page('plain_id', 'n1234', number);
      expect(read).toBeLessThanOrEqual(READ_BUDGET);
      expect(options.results.some((o) => o.isMatch)).toBe(false);
    }
    const { options, read } = await page('plain_id', '1234', 1);
    expect(read).toBeLessThanOrEqual(READ_BUDGET);
    expect(options.results[0]).toEqual({ key: 1234, label: 'n1234', isMatch: true });
    expect(options.results[1]).toEqual({ key: 1, label: 'n1', isMatch: false });
  });
});
