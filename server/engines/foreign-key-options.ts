import { sql } from 'kysely';
import type { Column, Table } from '#common/contract/sql.ts';
import { LAZY_LOAD_SIZE } from '#common/limits.ts';
import type { EngineAdapter, SqlFragment } from './adapter.ts';
import type { ForeignKeyOption, ForeignKeyOptions } from './engine.ts';
import { badInput, notFound } from './engine-error.ts';
import { countUpTo } from './table-catalog.ts';
import { checkValue } from './wire-values.ts';

/*
 * The choices of a foreign-key combobox (spec 000 §9: 25 a load, matches listed first), on referenced tables of any
 * size (docs/decisions/0047-row-editor-fields-and-grid-keys.md). With a term the list is three parts, each read in an
 * order an index gives, so a page costs what the rows before it cost and never a scan or a count of the table:
 *   1. the row whose key is the term (the key is unique: at most one row, read by its index);
 *   2. the rows whose label starts with the term, in the list's order (a range of the label's index);
 *   3. every other row, in the list's order (the label's or the key's index, the matches skipped as it goes).
 * A page is a window of that list: part 2 is counted only when the window starts past its end, and then only up to
 * the window's start.
 */

/** A referenced table of at most this many rows (the catalog's figure) is matched by an unindexed label too: a
 * scan of it is cheap. A bigger one is matched by its label only through an index on the label (else by key). */
export const UNINDEXED_LABEL_ROWS = 50_000;

/** A readable label for a referenced row: an indexed text column if there is one (so search and order are fast),
 * else the first text column, else the key itself. */
export function labelColumn(table: Table, key: Column): Column {
  const text = table.columns.filter((c) => c.typeGroup === 'Text' && c.name !== key.name);
  return text.find((c) => c.isIndexed) ?? text[0] ?? key;
}

/** What one call reads: the referenced table, its key and label, and the list's order. */
interface OptionSource {
  adapter: EngineAdapter;
  referenced: Table;
  key: Column;
  label: Column;
}

/**
 * The statements of the option list of one foreign key and term (exported so a test can look at their plans on a
 * big table): each selects `key` and `label`, with `limit` rows after `offset` of its part.
 */
export function optionStatements(source: OptionSource, term: string) {
  const { adapter, referenced, key, label } = source;
  const keyRef = sql.id(key.name);
  const labelRef = sql.id(label.name);
  // The list's order: the label's index when it has one (alphabetical), else the key's; the key breaks ties, so
  // OFFSET gives every row once across pages.
  const order =
    label.isIndexed && label.name !== key.name ? sql`${labelRef} asc, ${keyRef} asc` : sql`${keyRef} asc`;
  const select = (where: SqlFragment, limit: number, offset: number) =>
    sql<{
      key: unknown;
      label: unknown;
    }>`select ${keyRef} as ${sql.id('key')}, ${labelRef} as ${sql.id('label')} from ${sql.id(referenced.schema, referenced.name)} where ${where} order by ${order} ${adapter.limitOffset(limit, offset)}`;

  const keyValue = term ? tryValue(key, term) : null;
  const keyEquals = keyValue === null ? null : sql`${keyRef} = ${adapter.encodeValue(key, keyValue)}`;
  const labelMatchable =
    term !== '' &&
    label.typeGroup === 'Text' &&
    (label.isIndexed || referenced.numberOfRows <= UNINDEXED_LABEL_ROWS);
  const startsWith = labelMatchable ? adapter.textStartsWith(labelRef, term, label) : null;
  // Not the key's row: a referenced key may be a unique column that allows NULL.
  const notKey = keyEquals ? sql`(${keyRef} is null or not (${keyEquals}))` : sql`1 = 1`;
  const labelWhere = startsWith ? sql`${startsWith} and ${notKey}` : null;
  const restWhere = startsWith ? sql`(${labelRef} is null or not (${startsWith})) and ${notKey}` : notKey;

  return {
    /** The row whose key is the term, when the term can be a key. */
    keyMatch: keyEquals ? select(keyEquals, 1, 0) : null,
    /** The rows whose label starts with the term (other than the key's), when the label can be matched. */
    labelMatches: labelWhere ? (limit: number, offset: number) => select(labelWhere, limit, offset) : null,
    /** How many label matches there are, counting at most `cap` + 1. */
    labelMatchCount: labelWhere ? (cap: number) => countUpTo(adapter, referenced, cap, labelWhere) : null,
    /** Every other row (all rows without a term). */
    others: (limit: number, offset: number) => select(restWhere, limit, offset),
  };
}

/** The choices for a foreign-key column, 25 a page: the term's matches (exact key, then label prefix) first, then
 * every other referenced row; `isMatch` marks the matches. */
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

  const statements = optionStatements({ adapter, referenced, key, label }, query.term?.trim() ?? '');
  // The window of the list this page shows, one row more to know whether another page follows.
  const wanted = LAZY_LOAD_SIZE + 1;
  let skip = (query.page - 1) * LAZY_LOAD_SIZE;
  const found: ForeignKeyOption[] = [];
  const take = (rows: { key: unknown; label: unknown }[], isMatch: boolean) => {
    for (const row of rows) {
      found.push({
        key: adapter.decodeValue(key, row.key),
        label: String(adapter.decodeValue(label, row.label) ?? ''),
        isMatch,
      });
    }
  };

  if (statements.keyMatch) {
    const { rows } = await statements.keyMatch.execute(adapter.db);
    if (rows.length > 0 && skip > 0) skip -= 1;
    else take(rows, true);
  }
  if (statements.labelMatches && statements.labelMatchCount) {
    const { rows } = await statements.labelMatches(wanted - found.length, skip).execute(adapter.db);
    take(rows, true);
    // Fewer matches than asked: the window reaches past them. Those skipped are counted (only when this page
    // starts past them all), so the others' part knows where the window starts in it.
    if (rows.length > 0) skip = 0;
    else if (skip > 0) skip -= Math.min(skip, await statements.labelMatchCount(skip));
  }
  if (found.length < wanted) {
    const { rows } = await statements.others(wanted - found.length, skip).execute(adapter.db);
    take(rows, false);
  }
  return { results: found.slice(0, LAZY_LOAD_SIZE), hasMore: found.length > LAZY_LOAD_SIZE };
}

function tryValue(column: Column, term: string) {
  try {
    return checkValue(column, term);
  } catch {
    return null;
  }
}
