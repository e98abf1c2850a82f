import type { Filter, FilterCondition } from '#common/contract/filter.ts';
import type { Reference } from '#common/contract/relations.ts';
import type { Row } from '#common/contract/sql.ts';
import { browserAddressUrl, freshView } from '#web/features/browser/browser-address.ts';

/*
 * The Referenced-by entries (issue 37, docs/decisions/0065-references.md, Browser) as the editor shows them: the
 * referencing table's name, and the address of its grid filtered to the rows that point at this row.
 */

/**
 * The referencing table as the editor names it: its name, with its schema when that is not the schema of the row's own
 * table (the browser has no notion of a default schema; the row's schema is the one the person is in), and with its
 * columns when the list holds more than one foreign key of that table (Employee.ReportsTo beside Customer…).
 */
export function referencingName(reference: Reference, schema: string, all: readonly Reference[]): string {
  const name = reference.schema === schema ? reference.table : `${reference.schema}.${reference.table}`;
  const twice =
    all.filter((other) => other.schema === reference.schema && other.table === reference.table).length > 1;
  return twice ? `${name} (${reference.columns.join(', ')})` : name;
}

/**
 * The filter document (common/contract/filter.ts) of the rows that point at `row`: each referencing column equal to
 * the row's value of the column it references, ANDed for a composite key. Null when a referenced value is empty or
 * unknown: no row can point at it.
 */
export function referencingFilter(reference: Reference, row: Row): Filter | null {
  const conditions: FilterCondition[] = [];
  for (const [i, column] of reference.columns.entries()) {
    const value = row[reference.referencedColumns[i] ?? ''];
    if (value === undefined || value === null) return null;
    conditions.push({ column, op: 'eq', value });
  }
  if (conditions.length === 0) return null;
  return conditions.length === 1 ? (conditions[0] ?? null) : { and: conditions };
}

/** The browser's address of the referencing table filtered to the rows that point at `row` (`where=`, so it can be
 * bookmarked), or null when there are none to point at (referencingFilter). */
export function referencingRowsUrl(db: string, reference: Reference, row: Row): string | null {
  const where = referencingFilter(reference, row);
  if (!where) return null;
  return browserAddressUrl({ ...freshView(db, { schema: reference.schema, name: reference.table }), where });
}
