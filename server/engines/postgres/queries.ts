import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { Column } from '#common/contract/sql.ts';
import type { Executor, SqlFragment } from '#server/engines/adapter.ts';
import type { DynamicSchema } from '#server/engines/engine.ts';
import { ScanStopped } from '#server/engines/engine-error.ts';
import { codePointSuccessor } from '#server/engines/text-prefix.ts';

/*
 * The SQL pieces PostgreSQL writes its own way: paging, an index-friendly "starts with", and inserts that answer
 * their generated keys.
 */

/** `LIMIT n OFFSET m`, both bound. */
export function limitOffset(limit: number, offset: number): SqlFragment {
  return sql`limit ${limit} offset ${offset}`;
}

/**
 * How a range on the database's default collation can enclose every string starting with a prefix:
 * - `codePoint`: the collation orders by code point (C, POSIX, C.UTF-8, the builtin provider): the range ends
 *   before the prefix with its last character incremented (exact);
 * - `icu`: ICU gives U+FFFF the highest primary weight precisely so that [prefix, prefix + U+FFFF] encloses the
 *   strings starting with the prefix (CLDR root collation);
 * - `lowerBound`: a linguistic libc collation (en_US.UTF-8 …) has no such character ('ab:' sorts before 'ab9x',
 *   so does 'ab9' + U+10FFFF), or we do not know the collation yet: only the lower bound uses the index.
 */
export type PrefixStrategy = 'codePoint' | 'icu' | 'lowerBound';

/** The range strategy for the database's default collation (and encoding: the bounds need UTF-8). */
export async function readPrefixStrategy(db: Kysely<DynamicSchema>): Promise<PrefixStrategy> {
  // to_jsonb reads columns that only some versions have (datlocprovider since 15) without failing on older ones.
  const result = await sql<{ provider: string | null; collate: string; encoding: string }>`
    select to_jsonb(d) ->> 'datlocprovider' as provider, d.datcollate::text as collate,
      pg_encoding_to_char(d.encoding)::text as encoding
    from pg_database d where d.datname = current_database()`.execute(db);
  const row = result.rows[0];
  return row ? prefixStrategyOf(row.provider ?? 'c', row.collate, row.encoding) : 'lowerBound';
}

/** See PrefixStrategy: provider is pg_database.datlocprovider (c libc, i ICU, b builtin). */
export function prefixStrategyOf(provider: string, collate: string, encoding: string): PrefixStrategy {
  if (encoding !== 'UTF8') return 'lowerBound';
  if (provider === 'b') return 'codePoint';
  if (provider === 'i') return 'icu';
  return /^(C|POSIX|C\.utf-?8)$/i.test(collate) ? 'codePoint' : 'lowerBound';
}

/** Escapes LIKE's wildcards and the escape character itself. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** Collatable text types, which take the range; the rest of the Text group (enums, the one-byte "char") takes no
 * collation and no arbitrary text, so it is cast to text (without its index). */
const collatableText = new Set(['varchar', 'bpchar', 'text', 'citext', 'name']);

/**
 * "column starts with prefix", answered from a btree index on the column: LIKE 'abc%' cannot use one under any
 * collation but C, a range can. The range's comparisons (and the LIKE) are pinned to the database's default
 * collation, which is what the strategy was chosen for; a column with another collation still gets exact answers,
 * without its index. The LIKE recheck keeps the answer exact (case-sensitive) whatever the range lets through.
 */
export function textStartsWith(
  strategy: PrefixStrategy,
  column: SqlFragment,
  prefix: string,
  info?: Pick<Column, 'type'>,
): SqlFragment {
  const pattern = `${escapeLike(prefix)}%`;
  if (info && !collatableText.has(info.type)) return sql`(${column}::text like ${pattern} escape ${'\\'})`;
  if (prefix === '') return sql`(${column} is not null)`;
  const like = sql`${column} like (${pattern} collate "default") escape ${'\\'}`;
  const lower = sql`${column} >= (${prefix} collate "default")`;
  const upper =
    strategy === 'icu' ? `${prefix}\uffff` : strategy === 'codePoint' ? codePointSuccessor(prefix) : null;
  if (upper === null) return sql`(${lower} and ${like})`;
  const below = strategy === 'icu' ? sql`<=` : sql`<`;
  return sql`(${lower} and ${column} ${below} (${upper} collate "default") and ${like})`;
}

/**
 * "column matches pattern" by LIKE, case-sensitive as textStartsWith's recheck is: pinned to the database's default
 * collation (LIKE refuses a nondeterministic one); other Text types (enums, "char") as their text. No index serves
 * a pattern that starts with a wildcard (a pg_trgm GIN index would; DBUI does not ask for one).
 */
function textLike(column: SqlFragment, pattern: string, info?: Pick<Column, 'type'>): SqlFragment {
  if (info && !collatableText.has(info.type)) return sql`(${column}::text like ${pattern} escape ${'\\'})`;
  return sql`${column} like (${pattern} collate "default") escape ${'\\'}`;
}

/** `column LIKE '%text%'` (see textLike). */
export const textContains = (column: SqlFragment, text: string, info?: Pick<Column, 'type'>) =>
  textLike(column, `%${escapeLike(text)}%`, info);

/** `column LIKE '%text'` (see textLike). */
export const textEndsWith = (column: SqlFragment, text: string, info?: Pick<Column, 'type'>) =>
  textLike(column, `%${escapeLike(text)}`, info);

/** `INSERT … RETURNING` the key columns; no columns means every column takes its default. */
export async function insertRow(
  executor: Executor,
  table: { schema: string; name: string },
  values: Record<string, unknown>,
  keyColumns: string[],
): Promise<Record<string, unknown>> {
  const names = Object.keys(values);
  const target = sql.id(table.schema, table.name);
  const inserted =
    names.length === 0
      ? sql`insert into ${target} default values`
      : sql`insert into ${target} (${sql.join(names.map((name) => sql.id(name)))})
          values (${sql.join(names.map((name) => values[name]))})`;
  const returning =
    keyColumns.length === 0 ? sql`` : sql` returning ${sql.join(keyColumns.map((name) => sql.id(name)))}`;
  const result = await sql<Record<string, unknown>>`${inserted}${returning}`.execute(executor);
  return result.rows[0] ?? {};
}

/**
 * A scanning filter's select, stopped by PostgreSQL at the budget: `SET LOCAL statement_timeout` (set_config's local
 * form, so the budget travels as a bound value) in a read-only transaction, which the timeout's cancel ends on the
 * server and Kysely rolls back. A plain select takes only an ACCESS SHARE lock, which no writer waits for.
 */
export async function scanQuery(
  db: Kysely<DynamicSchema>,
  query: CompiledQuery,
  budgetMs: number,
): Promise<Record<string, unknown>[]> {
  try {
    return await db
      .transaction()
      .setAccessMode('read only')
      .execute(async (trx) => {
        await sql`select set_config('statement_timeout', ${String(Math.max(1, Math.round(budgetMs)))}, true)`.execute(
          trx,
        );
        return (await trx.executeQuery(query)).rows as Record<string, unknown>[];
      });
  } catch (error) {
    if (isStatementTimeout(error)) throw new ScanStopped(null, { cause: error });
    throw error;
  }
}

/** 57014 is also a cancel asked for by someone: only the timeout's message is the budget's. */
function isStatementTimeout(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === '57014' && typeof message === 'string' && /statement timeout/i.test(message);
}

/** The planner's estimate of the select's rows: EXPLAIN (FORMAT JSON)'s top plan rows, without running it. */
export async function estimateRows(db: Kysely<DynamicSchema>, query: CompiledQuery): Promise<number | null> {
  const { rows } = await db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]),
  );
  const raw = rows[0]?.['QUERY PLAN'];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as
    { Plan?: { 'Plan Rows'?: unknown } }[] | undefined;
  const estimate = plan?.[0]?.Plan?.['Plan Rows'];
  return typeof estimate === 'number' && Number.isFinite(estimate) ? estimate : null;
}
