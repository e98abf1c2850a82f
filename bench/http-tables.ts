/*
 * The 10-million-row tables bench:http reads: `bench_rows` (id, name, category, amount, created_at, note; indexes on
 * name, created_at and category) in PostgreSQL and MariaDB, in the database bench:engines and bench:export use
 * (`dbui_bench` unless BENCH_DATABASE names another). Made once and reused while they hold the asked rows: the
 * PostgreSQL one by bench-session.ts createBenchRows, the MariaDB one as bench/engines.ts makes it.
 */
import pg from 'pg';
import mysql from 'mysql2/promise';
import { createBenchRows } from './bench-session.ts';

export const BENCH_TABLE = 'bench_rows';

/** The database name goes into statements as an identifier: only a plain lower-case name is taken. */
export function checkedDatabaseName(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name))
    throw new Error(`BENCH_DATABASE must be a plain lower-case name (letters, digits, _); got "${name}".`);
  return name;
}

/** The server URL with the database path set. */
export function databaseUrl(server: string, database: string): string {
  const url = new URL(server);
  url.pathname = `/${database}`;
  return url.toString();
}

const seconds = (started: number) => `${((Date.now() - started) / 1000).toFixed(0)} s`;

/** Makes `database`.bench_rows with `rows` rows in PostgreSQL unless it is there already; its URL. */
export async function ensurePostgresRows(server: string, database: string, rows: number): Promise<string> {
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [database]);
    if (exists.rowCount === 0) await admin.query(`create database ${database}`);
  } finally {
    await admin.end();
  }
  const url = databaseUrl(server, database);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const present = await client.query('select 1 from pg_class where relname = $1', [BENCH_TABLE]);
    const have =
      present.rowCount === 0
        ? 0
        : Number((await client.query(`select max(id) as n from ${BENCH_TABLE}`)).rows[0].n);
    if (have !== rows) {
      console.log(`postgres: generating ${rows.toLocaleString('en-US')} rows in ${database}.${BENCH_TABLE}…`);
      const started = Date.now();
      await createBenchRows((statement) => client.query(statement), BENCH_TABLE, rows);
      console.log(`postgres: ready in ${seconds(started)}`);
    }
  } finally {
    await client.end();
  }
  return url;
}

/** Makes `database`.bench_rows with `rows` rows in MariaDB unless it is there already; its URL. */
export async function ensureMariadbRows(server: string, database: string, rows: number): Promise<string> {
  const admin = await mysql.createConnection({ uri: server });
  await admin.query(`create database if not exists ${database}`);
  await admin.end();
  const url = databaseUrl(server, database);
  const connection = await mysql.createConnection({ uri: url });
  try {
    const [tables] = await connection.query(
      'select count(*) as n from information_schema.tables where table_schema = ? and table_name = ?',
      [database, BENCH_TABLE],
    );
    const present = Number((tables as { n: number }[])[0]?.n) > 0;
    const [max] = present ? await connection.query(`select max(id) as n from ${BENCH_TABLE}`) : [[{ n: 0 }]];
    if (Number((max as { n: number }[])[0]?.n) === rows) return url;
    console.log(`mysql: generating ${rows.toLocaleString('en-US')} rows in ${database}.${BENCH_TABLE}…`);
    const started = Date.now();
    await connection.query(`drop table if exists ${BENCH_TABLE}`);
    await connection.query(`create table ${BENCH_TABLE} (
      id bigint auto_increment primary key,
      name varchar(100) not null,
      category int not null,
      amount decimal(12,2) not null,
      created_at datetime(6) not null,
      note text) character set utf8mb4`);
    // MariaDB's sequence engine makes the rows without a round trip each; chunks keep the undo log small.
    const chunk = 1_000_000;
    for (let from = 1; from <= rows; from += chunk) {
      const to = Math.min(rows, from + chunk - 1);
      await connection.query(`insert into ${BENCH_TABLE} (id, name, category, amount, created_at, note)
        select seq, md5(seq), seq % 1000, (seq % 100000) / 100.0, timestampadd(second, seq, '2020-01-01'),
               if(seq % 10 = 0, null, concat('note ', seq))
        from seq_${from}_to_${to}`);
    }
    await connection.query(`create index ${BENCH_TABLE}_name on ${BENCH_TABLE} (name)`);
    await connection.query(`create index ${BENCH_TABLE}_created on ${BENCH_TABLE} (created_at)`);
    await connection.query(`create index ${BENCH_TABLE}_category on ${BENCH_TABLE} (category)`);
    await connection.query(`analyze table ${BENCH_TABLE}`);
    console.log(`mysql: ready in ${seconds(started)}`);
    return url;
  } finally {
    await connection.end();
  }
}
