import { sql } from 'kysely';
import type { Column, Table } from '#common/contract/sql.ts';
import { LAZY_LOAD_SIZE } from '#common/limits.ts';
import type { EngineAdapter, SqlFragment } from './adapter.ts';
import type { ForeignKeyOptions } from './engine.ts';
import { badInput, notFound } from './engine-error.ts';
import { checkValue } from './wire-values.ts';

/** A readable label for a referenced row: an indexed text column if there is one (so search and order are fast),
 * else the first text column, else the key itself. */
export function labelColumn(table: Table, key: Column): Column {
  const text = table.columns.filter((c) => c.typeGroup === 'Text' && c.name !== key.name);
  return text.find((c) => c.isIndexed) ?? text[0] ?? key;
}

/** The choices for a foreign-key column, 25 a page, matching the term by label prefix or exact key. */
export async function foreignKeyOptions(
  adapter: EngineAdapter,
  catalog: Table[],
  table: Table,
  columnName: string,
  query: { term?: string; page: number },
): Promise<ForeignKeyOptions> {
  const fk = table.foreignKeys.find((f) => f.columns.length === 1 && f.columns[0] === columnName);
  if (!fk) {
    if (!table.columns.some((c) => c.name === columnName))
      throw badInput(`${columnName} is not a column of ${table.name}.`);
    throw badInput(`${columnName} does not reference another table by itself, so it has no options.`);
  }
  const referenced = catalog.find((t) => t.schema === fk.referencedSchema && t.name === fk.referencedTable);
  const key = referenced?.columns.find((c) => c.name === fk.referencedColumns[0]);
  if (!referenced || !key) throw notFound(`The table ${fk.referencedTable} that ${columnName} references`);
  const label = labelColumn(referenced, key);
  if (!Number.isInteger(query.page) || query.page < 1) throw badInput('page must be a whole number from 1.');

  const term = query.term?.trim() ?? '';
  const matches: SqlFragment[] = [];
  if (term) {
    if (label.typeGroup === 'Text') matches.push(adapter.textStartsWith(sql.id(label.name), term, label));
    const keyValue = tryValue(key, term);
    if (keyValue !== null) matches.push(sql`${sql.id(key.name)} = ${adapter.encodeValue(key, keyValue)}`);
    if (matches.length === 0) return { results: [], hasMore: false };
  }
  const where = matches.length ? sql`(${sql.join(matches, sql` or `)})` : sql`1 = 1`;
  const orderBy = label.isIndexed ? label : key;
  const rows = await sql<
    Record<string, unknown>
  >`select ${sql.id(key.name)} as ${sql.id('key')}, ${sql.id(label.name)} as ${sql.id('label')} from ${sql.id(referenced.schema, referenced.name)} where ${where} order by ${sql.id(orderBy.name)} asc ${adapter.limitOffset(LAZY_LOAD_SIZE + 1, (query.page - 1) * LAZY_LOAD_SIZE)}`.execute(
    adapter.db,
  );
  return {
    results: rows.rows.slice(0, LAZY_LOAD_SIZE).map((row) => ({
      key: adapter.decodeValue(key, row.key),
      label: String(adapter.decodeValue(label, row.label) ?? ''),
    })),
    hasMore: rows.rows.length > LAZY_LOAD_SIZE,
  };
}

function tryValue(column: Column, term: string) {
  try {
    return checkValue(column, term);
  } catch {
    return null;
  }
}
