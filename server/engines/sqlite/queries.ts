import { sql } from 'kysely';
import type { Executor, SqlFragment } from '#server/engines/adapter.ts';
import { codePointSuccessor } from '#server/engines/text-prefix.ts';

export const sqliteLimitOffset = (limit: number, offset: number): SqlFragment =>
  sql`limit ${limit} offset ${offset}`;

/**
 * Starts-with as a range, which SQLite answers from an index on the column: `col >= 'abc' and col < 'abd'`. Under
 * the default BINARY collation that is exactly the strings starting with 'abc'; under NOCASE it matches case-
 * insensitively, as that collation says.
 */
export function sqliteTextStartsWith(column: SqlFragment, prefix: string): SqlFragment {
  const upper = codePointSuccessor(prefix);
  return upper === null
    ? sql`${column} >= ${prefix}`
    : sql`(${column} >= ${prefix} and ${column} < ${upper})`;
}

/**
 * Contains as `instr(column, text) > 0`: case-sensitive, as the starts-with range is under the default BINARY
 * collation, and without LIKE (SQLite's LIKE ignores the case of ASCII letters whatever the collation), so no
 * character of the text is a wildcard. An empty text is every value that is not null.
 */
export function sqliteTextContains(column: SqlFragment, text: string): SqlFragment {
  return text === '' ? sql`${column} is not null` : sql`instr(${column}, ${text}) > 0`;
}

/** Ends-with as the column's last characters compared with the text: case-sensitive and wildcard-free, as
 * sqliteTextContains. */
export function sqliteTextEndsWith(column: SqlFragment, text: string): SqlFragment {
  return text === '' ? sql`${column} is not null` : sql`substr(${column}, -length(${text})) = ${text}`;
}

/** INSERT … RETURNING the key (SQLite 3.35 and later). */
export async function sqliteInsertRow(
  executor: Executor,
  table: { schema: string; name: string },
  values: Record<string, unknown>,
  keyColumns: string[],
): Promise<Record<string, unknown>> {
  const names = Object.keys(values);
  const target = sql.id(table.schema, table.name);
  const body = names.length
    ? sql`(${sql.join(names.map((n) => sql.id(n)))}) values (${sql.join(names.map((n) => values[n]))})`
    : sql`default values`;
  if (keyColumns.length === 0) {
    await sql`insert into ${target} ${body}`.execute(executor);
    return {};
  }
  const result = await sql<
    Record<string, unknown>
  >`insert into ${target} ${body} returning ${sql.join(keyColumns.map((k) => sql.id(k)))}`.execute(executor);
  return result.rows[0] ?? {};
}
