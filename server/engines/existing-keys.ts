import { sql } from 'kysely';
import type { Row, Table } from '#common/contract/sql.ts';
import type { EngineAdapter, Executor, SqlFragment } from './adapter.ts';
import { badInput } from './engine-error.ts';
import { keyPredicate } from './row-writes.ts';
import { checkValue } from './wire-values.ts';

/*
 * Which of a batch of keys a table holds (issue 39's dry run, docs/decisions/0069-imports.md): one statement per batch
 * (`c in (…)` for a one-column key, an or of each key's columns otherwise) rather than one per row. The columns come
 * from the catalog, every value is a bound parameter checked against its column; a statement binds at most
 * MAX_PARAMETERS values (SQL Server takes 2,100), so a bigger batch is read in a few statements.
 */

const MAX_PARAMETERS = 2000;

/** The keys of `keys` (column → value over `columns`) that rows of `table` hold, as the database answers them. */
export async function existingKeys(
  adapter: EngineAdapter,
  table: Table,
  columns: string[],
  keys: Row[],
  /** Where to ask: the adapter's pool, or an import's transaction (import-writes.ts). */
  executor: Executor = adapter.db,
): Promise<Row[]> {
  const found: Row[] = [];
  if (keys.length === 0 || columns.length === 0) return found;
  const catalog = columns.map((name) => {
    const column = table.columns.find((c) => c.name === name);
    if (!column) throw badInput(`${name} is not a column of ${table.name}.`);
    return column;
  });
  const list = sql.join(
    catalog.map((c) =>
      adapter.selectExpression
        ? sql`${adapter.selectExpression(c, sql.id(c.name))} as ${sql.id(c.name)}`
        : sql.id(c.name),
    ),
  );
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
  for (let start = 0; start < keys.length; start += perStatement) {
    const chunk = keys.slice(start, start + perStatement);
    let where: SqlFragment;
    const [only] = catalog;
    if (catalog.length === 1 && only) {
      where = sql`${sql.id(only.name)} in (${sql.join(
        chunk.map((key) => {
          const checked = checkValue(only, key[only.name] ?? null);
          if (checked === null) throw badInput(`${only.name}: a key cannot be empty.`);
          return sql`${adapter.encodeValue(only, checked)}`;
        }),
      )})`;
    } else {
      where = sql`(${sql.join(
        chunk.map((key) => sql`(${keyPredicate(adapter, table, columns, key)})`),
        sql` or `,
      )})`;
    }
    const answer = await sql<
      Record<string, unknown>
    >`select distinct ${list} from ${sql.id(table.schema, table.name)} where ${where}`.execute(executor);
    for (const raw of answer.rows) {
      const row: Row = {};
      for (const column of catalog) row[column.name] = adapter.decodeValue(column, raw[column.name]);
      found.push(row);
    }
  }
  return found;
}
