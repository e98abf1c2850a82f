import type { Row, Table } from '#common/contract/sql.ts';
import type { EngineAdapter } from './adapter.ts';
import { keyPredicate } from './row-writes.ts';
import { countUpTo } from './table-catalog.ts';

/*
 * Counting the rows that point at one row (issue 37, docs/decisions/0065-references.md): the referencing table's
 * foreign-key columns equal to the referenced row's values, every column of a composite key, values as parameters
 * checked against the referencing columns' types, identifiers from the catalog. Stops after `cap + 1` rows.
 */

/** True when the referencing columns are the leading columns of one index (in any order) or of the primary key, so
 * a count reads the index, not the table. The primary key counts even where the catalog lists no index for it
 * (SQLite's rowid), as the filter plan does. */
export function referencingColumnsIndexed(table: Table, columns: string[]): boolean {
  const wanted = new Set(columns);
  const leads = (keyColumns: string[]) =>
    keyColumns.length >= wanted.size && keyColumns.slice(0, wanted.size).every((name) => wanted.has(name));
  return leads(table.primaryKey) || table.indexes.some((index) => leads(index.columns));
}

/** How many rows of `referencing` have `columns` equal to `values` (column → value, by referencing column name),
 * up to `cap + 1`. */
export async function countReferencingRows(
  adapter: EngineAdapter,
  referencing: Table,
  columns: string[],
  values: Row,
  cap: number,
): Promise<number> {
  return countUpTo(adapter, referencing, cap, keyPredicate(adapter, referencing, columns, values));
}
