import type { ForeignKeyLabels } from '#common/contract/labels.ts';
import type { Row, Table } from '#common/contract/sql.ts';
import { visibleTables } from '#server/access/policy.ts';
import type { Caller } from '#server/access/table-access.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';

/*
 * The page calls' `?labels=1` step (issue 37, docs/decisions/0067-foreign-key-labels.md): the labels of the rows the
 * page's foreign keys point at. The referenced tables are those of the catalog the table list shows this caller
 * (visibleTables, as references-service.ts does), filtered before the engine looks at a foreign key: a table the
 * caller may not read is neither named nor read, and its foreign keys' cells get no entry, whether it exists or not.
 */
export async function pageLabels(
  engine: DatabaseEngine,
  caller: Caller,
  database: string,
  table: Table,
  rows: Row[],
): Promise<ForeignKeyLabels[]> {
  if (table.foreignKeys.length === 0) return [];
  const readable = visibleTables(caller.account, database, await engine.catalog());
  return engine.foreignKeyLabels(table, readable, rows);
}
