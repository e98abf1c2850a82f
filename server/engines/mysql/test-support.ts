import type { Column } from '#common/contract/sql.ts';
import type { CatalogTable } from '#server/engines/adapter.ts';
import { columnDefault } from '#server/engines/column-defaults.ts';

/** A catalog column as the generic engine would complete it (the derived flags do not matter to the adapter). */
export function columnOf(tables: CatalogTable[], table: string, column: string): Column {
  const found = tables.find((t) => t.name === table)?.columns.find((c) => c.name === column);
  if (!found) throw new Error(`${table}.${column} is not in the catalog`);
  const { defaultLiteral, ...read } = found;
  return {
    ...read,
    ...columnDefault(read, defaultLiteral),
    isIndexed: false,
    isForeignKey: false,
    isForeignKeySource: false,
    isPrimaryKey: false,
  };
}

/** The catalog table by name, or a failure naming it. */
export function tableOf(tables: CatalogTable[], name: string): CatalogTable {
  const found = tables.find((t) => t.name === name);
  if (!found) throw new Error(`${name} is not in the catalog`);
  return found;
}
