import { sql } from 'kysely';
import type { Column, Table } from '#common/contract/sql.ts';
import { tableId } from '#common/links.ts';
import type { CatalogTable, EngineAdapter } from './adapter.ts';
import { columnDefault } from './column-defaults.ts';
import { engineCapabilities } from './engine-capabilities.ts';

/** Tables with at most this many rows (by the engine's estimate) are counted exactly for the catalog. */
export const EXACT_COUNT_THRESHOLD = 50_000;
/** Counting stops here: a table without an estimate is never counted past this in one catalog read. */
export const COUNT_CAP = 1_000_000;

/**
 * What a table's row figure (numberOfRows) is worth as a bound: an exact count, the engine's estimate (the table may
 * hold somewhat more or fewer rows), or a capped count with no estimate (at least that many; no upper bound known).
 * Paging refuses a page past the end from it (row-pages.ts).
 */
export type RowFigure = 'exact' | 'estimate' | 'at least';

/** The figure of each table this module built; the wire's Table has only numberOfRowsIsEstimate. */
const rowFigures = new WeakMap<Table, RowFigure>();

/** What the row figure of a catalog table is worth; a table not built here (a test's) counts as 'at least' when it
 * is not exact, which refuses nothing. */
export const rowFigureOf = (table: Table): RowFigure =>
  rowFigures.get(table) ?? (table.numberOfRowsIsEstimate ? 'at least' : 'exact');

/** Completes what an adapter read: ids, the key and index flags of every column, and row counts. */
export async function buildCatalog(
  database: string,
  adapter: EngineAdapter,
  tables: CatalogTable[],
): Promise<Table[]> {
  const referenced = new Set<string>();
  for (const table of tables) {
    for (const fk of table.foreignKeys) {
      for (const column of fk.referencedColumns)
        referenced.add(`${fk.referencedSchema}\u0000${fk.referencedTable}\u0000${column}`);
    }
  }
  const built: Table[] = [];
  for (const table of tables) {
    const leading = new Set(table.indexes.map((index) => index.columns[0]));
    if (table.primaryKey[0]) leading.add(table.primaryKey[0]);
    const fkColumns = new Set(table.foreignKeys.flatMap((fk) => fk.columns));
    const uniqueAlone = new Set(
      table.indexes.filter((i) => i.isUnique && i.columns.length === 1).map((i) => i.columns[0]),
    );
    const soleKey = table.primaryKey.length === 1 ? table.primaryKey[0] : undefined;
    const columns: Column[] = table.columns.map(({ defaultLiteral, ...column }) => ({
      ...column,
      ...columnDefault(column, defaultLiteral),
      // A guid column is one the row is known by (its key, a unique column) or the database fills in (a default).
      // A uuid that references another table is a foreign key, not the row's guid: it stays editable.
      isGuid:
        (column.isGuid || column.typeGroup === 'guid') &&
        !fkColumns.has(column.name) &&
        (column.name === soleKey || uniqueAlone.has(column.name) || column.defaultValue !== null),
      isIndexed: leading.has(column.name),
      isForeignKey: fkColumns.has(column.name),
      isForeignKeySource: referenced.has(`${table.schema}\u0000${table.name}\u0000${column.name}`),
      isPrimaryKey: table.primaryKey.includes(column.name),
    }));
    const identity = columns.find((c) => c.isIdentity)?.name ?? null;
    const guid = columns.find((c) => c.isGuid)?.name ?? null;
    const rows = await rowCount(adapter, table);
    const entry: Table = {
      // Stable while the table exists (0004); each name one percent-encoded segment (0015).
      id: tableId(database, table.schema, table.name),
      schema: table.schema,
      name: table.name,
      isView: table.isView,
      numberOfColumns: columns.length,
      numberOfRows: rows.count,
      numberOfRowsIsEstimate: !rows.exact,
      hasIdentity: identity !== null,
      hasGuid: guid !== null,
      primaryKey: table.primaryKey,
      identityColumn: identity,
      guidColumn: guid,
      columns,
      indexes: table.indexes,
      foreignKeys: table.foreignKeys,
    };
    rowFigures.set(entry, rows.figure);
    built.push(entry);
  }
  return built;
}

/** Exact for small tables and tables the engine has no estimate for (counting at most COUNT_CAP rows), else
 * the engine's estimate. A count that reaches the cap says "at least COUNT_CAP" (a small estimate beside it is
 * stale: the table has grown past it). */
async function rowCount(
  adapter: EngineAdapter,
  table: CatalogTable,
): Promise<{ count: number; exact: boolean; figure: RowFigure }> {
  if (table.estimatedRows !== null && table.estimatedRows > EXACT_COUNT_THRESHOLD) {
    return { count: table.estimatedRows, exact: false, figure: 'estimate' };
  }
  try {
    const count = await countUpTo(adapter, table, COUNT_CAP);
    return count > COUNT_CAP
      ? { count: COUNT_CAP, exact: false, figure: 'at least' }
      : { count, exact: true, figure: 'exact' };
  } catch {
    // A view that fails to evaluate (a broken definition, a permission) still belongs in the catalog.
    return { count: table.estimatedRows ?? 0, exact: false, figure: 'at least' };
  }
}

/** Runs a select and answers its rows: on the adapter's pool, or under a scan budget (row-pages.ts). */
export type RunSelect = (statement: ReturnType<typeof sql>) => Promise<Record<string, unknown>[]>;

/** Counts rows, stopping after `cap + 1`. */
export async function countUpTo(
  adapter: EngineAdapter,
  table: { schema: string; name: string },
  cap: number,
  where: ReturnType<typeof sql> = sql`1 = 1`,
  run: RunSelect = async (statement) =>
    (await statement.execute(adapter.db)).rows as Record<string, unknown>[],
): Promise<number> {
  const inner = engineCapabilities(adapter.kind).capsRowsWithTop
    ? sql`select top (${cap + 1}) 1 as one from ${sql.id(table.schema, table.name)} where ${where}`
    : sql`select 1 as one from ${sql.id(table.schema, table.name)} where ${where} ${adapter.limitOffset(cap + 1, 0)}`;
  const rows = await run(sql`select count(*) as n from (${inner}) as counted`);
  return Number((rows[0]?.n as number | string | bigint | undefined) ?? 0);
}
