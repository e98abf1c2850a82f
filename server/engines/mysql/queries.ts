import { randomUUID } from 'node:crypto';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { Executor, SqlFragment } from '#server/engines/adapter.ts';
import type { DynamicSchema } from '#server/engines/engine.ts';
import { ScanStopped } from '#server/engines/engine-error.ts';

/** `LIMIT n OFFSET m`, both bound. */
export function limitOffset(limit: number, offset: number): SqlFragment {
  return sql`limit ${limit} offset ${offset}`;
}

/**
 * `column LIKE 'prefix%'`: MySQL answers a constant prefix from an index on the column (a range scan). The match
 * follows the column's collation, so it is case-insensitive for the usual *_ci collations, as MySQL users expect.
 * The escape character is `!` rather than a backslash, whose spelling in a literal depends on the sql_mode.
 */
export function textStartsWith(column: SqlFragment, prefix: string): SqlFragment {
  return sql`${column} like ${`${escapeLike(prefix)}%`} escape '!'`;
}

/** `column LIKE '%text%'`: as textStartsWith (the column's collation decides the case), without an index. */
export function textContains(column: SqlFragment, text: string): SqlFragment {
  return sql`${column} like ${`%${escapeLike(text)}%`} escape '!'`;
}

/** `column LIKE '%text'`, as textContains. */
export function textEndsWith(column: SqlFragment, text: string): SqlFragment {
  return sql`${column} like ${`%${escapeLike(text)}`} escape '!'`;
}

/** The term with LIKE's wildcards and the escape character taken literally. */
export const escapeLike = (term: string) => term.replace(/[!%_]/g, (c) => `!${c}`);

type Table = { schema: string; name: string };

function insertStatement(table: Table, values: Record<string, unknown>) {
  const names = Object.keys(values);
  const columns = sql.join(names.map((name) => sql.id(name)));
  const bound = sql.join(names.map((name) => sql`${values[name]}`));
  return names.length > 0
    ? sql`insert into ${sql.id(table.schema, table.name)} (${columns}) values (${bound})`
    : sql`insert into ${sql.id(table.schema, table.name)} () values ()`;
}

/**
 * MariaDB (10.5 and later): INSERT … RETURNING answers the key as the row holds it, whatever filled it in
 * (AUTO_INCREMENT, a default such as UUID(), a trigger).
 */
export async function insertReturning(
  executor: Executor,
  table: Table,
  values: Record<string, unknown>,
  keyColumns: string[],
): Promise<Record<string, unknown>> {
  const statement = insertStatement(table, values);
  if (keyColumns.length === 0) {
    await statement.execute(executor);
    return {};
  }
  const returning = sql.join(keyColumns.map((name) => sql.id(name)));
  const { rows } = await sql<Record<string, unknown>>`${statement} returning ${returning}`.execute(executor);
  return rows[0] ?? {};
}

/**
 * MySQL (no RETURNING): the key from the values given, the AUTO_INCREMENT column from the driver's insertId, and a
 * key column whose default is UUID() gets a UUID made here before the insert (the database's would be unknowable).
 * A key column with a constant default answers that constant.
 */
export async function insertWithoutReturning(
  executor: Executor,
  table: Table,
  values: Record<string, unknown>,
  keyColumns: string[],
): Promise<Record<string, unknown>> {
  const row = { ...values };
  const missing = keyColumns.filter((name) => row[name] === undefined);
  const facts =
    missing.length > 0 ? await keyColumnFacts(executor, table, missing) : new Map<string, KeyFacts>();
  let autoIncrement: string | null = null;
  const constants: Record<string, unknown> = {};
  for (const name of missing) {
    const column = facts.get(name);
    if (!column) continue;
    if (/auto_increment/i.test(column.extra)) autoIncrement = name;
    else if (column.default !== null && /\buuid\(\)/i.test(column.default)) row[name] = newUuid(column);
    else if (column.default !== null) constants[name] = unquote(column.default);
  }
  const result = await insertStatement(table, row).execute(executor);
  const answer: Record<string, unknown> = {};
  for (const name of keyColumns) {
    if (name === autoIncrement) {
      const id = result.insertId;
      if (id !== undefined) answer[name] = id <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(id) : id;
    } else if (row[name] !== undefined) {
      answer[name] = row[name];
    } else if (name in constants) {
      answer[name] = constants[name];
    }
  }
  return answer;
}

interface KeyFacts {
  extra: string;
  default: string | null;
  dataType: string;
  octets: number | null;
}

async function keyColumnFacts(
  executor: Executor,
  table: Table,
  names: string[],
): Promise<Map<string, KeyFacts>> {
  const { rows } = await sql<Record<string, unknown>>`
    select COLUMN_NAME as column_name, EXTRA as extra, COLUMN_DEFAULT as column_default, DATA_TYPE as data_type,
           CHARACTER_OCTET_LENGTH as octets
    from information_schema.COLUMNS
    where TABLE_SCHEMA = ${table.schema} and TABLE_NAME = ${table.name}
      and COLUMN_NAME in (${sql.join(names.map((name) => sql`${name}`))})`.execute(executor);
  const text = (value: unknown) =>
    value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : String(value);
  return new Map(
    rows.map((row) => [
      text(row.column_name),
      {
        extra: text(row.extra ?? ''),
        default:
          row.column_default === null || row.column_default === undefined ? null : text(row.column_default),
        dataType: text(row.data_type).toLowerCase(),
        octets: row.octets === null || row.octets === undefined ? null : Number(text(row.octets)),
      },
    ]),
  );
}

/** A UUID for the column: its 16 bytes for BINARY(16) (as UUID_TO_BIN(UUID()) stores it), else its text. */
function newUuid(column: KeyFacts): string | Buffer {
  const uuid = randomUUID();
  return column.dataType === 'binary' && column.octets === 16
    ? Buffer.from(uuid.replace(/-/g, ''), 'hex')
    : uuid;
}

/** MariaDB quotes string defaults ('x'); MySQL does not. */
const unquote = (value: string) => (/^'.*'$/s.test(value) ? value.slice(1, -1).replace(/''/g, "'") : value);

/** MariaDB max_statement_time (1969), MySQL max_execution_time (3024): the statement ran out of its time. */
const TIMEOUT_ERRNOS = new Set([1969, 3024]);

/**
 * A scanning filter's select as the server stops it at the budget: MariaDB `SET STATEMENT max_statement_time = s FOR
 * select …` (the seconds bound like the select's values), MySQL the `MAX_EXECUTION_TIME(ms)` optimizer hint (a
 * comment, so the number, DBUI's own setting, is written into it). Either way the server kills the statement itself.
 * A plain select reads InnoDB's snapshot without locking a row (a consistent nonlocking read).
 */
export function boundedSelect(query: CompiledQuery, budgetMs: number, mariaDb: boolean): CompiledQuery {
  const ms = Math.max(1, Math.round(budgetMs));
  if (mariaDb)
    return CompiledQuery.raw(`set statement max_statement_time = ? for ${query.sql}`, [
      ms / 1000,
      ...query.parameters,
    ]);
  if (!/^\s*select\s/i.test(query.sql)) throw new Error('a scan runs a select');
  return CompiledQuery.raw(query.sql.replace(/^\s*select\s/i, `select /*+ MAX_EXECUTION_TIME(${ms}) */ `), [
    ...query.parameters,
  ]);
}

/** Runs a scanning filter's select under its budget (boundedSelect); the server's stop is a ScanStopped. */
export async function scanQuery(
  db: Kysely<DynamicSchema>,
  query: CompiledQuery,
  budgetMs: number,
  mariaDb: boolean,
): Promise<Record<string, unknown>[]> {
  try {
    return (await db.executeQuery<Record<string, unknown>>(boundedSelect(query, budgetMs, mariaDb))).rows;
  } catch (error) {
    const errno = typeof error === 'object' && error !== null && 'errno' in error ? error.errno : null;
    if (typeof errno === 'number' && TIMEOUT_ERRNOS.has(errno)) throw new ScanStopped(null, { cause: error });
    throw error;
  }
}

/** The optimizer's estimate of the select's rows: EXPLAIN's rows of its first table, times `filtered` (MySQL's share
 * of them the WHERE keeps; MariaDB's plain EXPLAIN has none). */
export async function estimateRows(db: Kysely<DynamicSchema>, query: CompiledQuery): Promise<number | null> {
  const { rows } = await db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]),
  );
  const first = rows[0];
  if (!first) return null;
  const examined = Number(first.rows);
  if (!Number.isFinite(examined)) return null;
  const filtered = first.filtered === undefined || first.filtered === null ? 100 : Number(first.filtered);
  return Math.round((examined * (Number.isFinite(filtered) ? filtered : 100)) / 100);
}
