import type { Row, Table } from '#common/contract/sql.ts';
import { REFERENCES_COUNT_CAP, referencesMessages, type Reference } from '#common/contract/relations.ts';
import { openTable, type Caller, type TableAccessContext } from '#server/access/table-access.ts';
import { visibleTables, type TableRef } from '#server/access/policy.ts';
import { referencingColumnsIndexed } from '#server/engines/referencing-rows.ts';
import { rowKey } from '#server/engines/row-writes.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';

/*
 * POST …/references (issue 37, docs/decisions/0065-references.md). The table is opened as the page call opens it;
 * the referencing tables are those of the catalog the table list shows this caller (visibleTables), so a table the
 * caller may not read is neither named nor counted, and nothing in the answer depends on it. Counts run only where
 * the referencing columns lead an index, and stop at REFERENCES_COUNT_CAP + 1.
 */

/** Whether a foreign key of `from` points at `to`. */
const pointsAt = (fk: Table['foreignKeys'][number], to: Table) =>
  fk.referencedSchema === to.schema && fk.referencedTable === to.name;

export async function referencesOf(
  context: TableAccessContext,
  caller: Caller,
  ref: TableRef,
  given: Row,
): Promise<Reference[]> {
  const { engine, table } = await openTable(context, caller, ref, 'read');
  const key = rowKey(table);
  if (!key.length || key.some((name) => given[name] === undefined || given[name] === null)) {
    throw new ApiError(400, referencesMessages.keyRequired(table.name, key));
  }
  // The row as it is now gives the referenced columns that are not its key (a foreign key may point at a unique
  // column); a key that names no row still answers, with the counts of rows holding that key value. readRow checks
  // the key's types (a 400 naming the column).
  const current = table.isView ? null : await engine.readRow(table, given);
  const values: Row = { ...given, ...(current ?? {}) };
  const readable = visibleTables(caller.account, ref.database, await engine.catalog());
  const answers: Reference[] = [];
  for (const referencing of readable) {
    for (const fk of referencing.foreignKeys) {
      if (!pointsAt(fk, table)) continue;
      const matched: Row = {};
      let complete = true;
      fk.columns.forEach((column, i) => {
        const value = values[fk.referencedColumns[i] ?? ''];
        if (value === undefined || value === null) complete = false;
        else matched[column] = value;
      });
      let count: number | null = null;
      // A row with an empty referenced column is pointed at by nothing (null never equals).
      if (!complete) count = current ? 0 : null;
      else if (referencingColumnsIndexed(referencing, fk.columns)) {
        count = await engine.countReferencing(referencing, fk.columns, matched, REFERENCES_COUNT_CAP);
      }
      const capped = count !== null && count > REFERENCES_COUNT_CAP;
      answers.push({
        schema: referencing.schema,
        table: referencing.name,
        columns: fk.columns,
        referencedColumns: fk.referencedColumns,
        constraint: fk.name,
        onDelete: fk.onDelete,
        count: capped ? REFERENCES_COUNT_CAP : count,
        capped,
      });
    }
  }
  return answers;
}
