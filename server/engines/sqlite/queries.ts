import { sql } from 'kysely';
import type { Executor, SqlFragment } from '#server/engines/adapter.ts';

export const sqliteLimitOffset = (limit: number, offset: number): SqlFragment =>
  sql`limit ${limit} offset ${offset}`;

/** The smallest string greater than every string that starts with `prefix` in code point order, or null. */
export function prefixUpperBound(prefix: string): string | null {
  const chars = [...prefix];
  for (let char = chars.pop(); char !== undefined; char = chars.pop()) {
    const last = char.codePointAt(0) ?? 0;
    if (last < 0x10ffff) {
      // Skip the surrogate range, which no valid string holds.
      const next = last + 1 >= 0xd800 && last + 1 <= 0xdfff ? 0xe000 : last + 1;
      return chars.join('') + String.fromCodePoint(next);
    }
  }
  return null;
}

/**
 * Starts-with as a range, which SQLite answers from an index on the column: `col >= 'abc' and col < 'abd'`. Under
 * the default BINARY collation that is exactly the strings starting with 'abc'; under NOCASE it matches case-
 * insensitively, as that collation says.
 */
export function sqliteTextStartsWith(column: SqlFragment, prefix: string): SqlFragment {
  const upper = prefixUpperBound(prefix);
  return upper === null
    ? sql`${column} >= ${prefix}`
    : sql`(${column} >= ${prefix} and ${column} < ${upper})`;
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
