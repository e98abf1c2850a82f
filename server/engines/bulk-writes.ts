import { sql } from 'kysely';
import type { Filter as FilterDocument } from '#common/contract/filter.ts';
import type { Column, ForeignKey, Row, Table } from '#common/contract/sql.ts';
import type { EngineAdapter, Executor, SqlFragment } from './adapter.ts';
import { engineCapabilities } from './engine-capabilities.ts';
import { badInput } from './engine-error.ts';
import { filterPredicate } from './filter-predicates.ts';
import { decodeRow, selectList } from './row-pages.ts';
import { keyPredicate, rowKey } from './row-writes.ts';
import { countUpTo } from './table-catalog.ts';
import { checkValue } from './wire-values.ts';

/*
 * Bulk changes (issue 38, docs/decisions/0068-bulk-changes.md): the rows a filter document keeps, narrowed to the keys
 * of a hand-made selection, counted, read and changed a batch at a time in key order. Each batch is its own short
 * transaction: its rows are read under the row lock writes take (so "before" is what the change replaces, the
 * lost-update rule of row-writes.ts), changed by their keys, read again, handed to the caller's beforeCommit (the
 * audit's intent) and committed. The next batch seeks past the last key (keyset), so no batch rescans what an earlier
 * one did. Column names come from the catalog, every value is a bound parameter.
 */

/** Which rows a bulk change takes: the filter's, narrowed to `keys` when given. */
export interface BulkSelection {
  where?: FilterDocument | undefined;
  keys?: Row[] | undefined;
}

/** One batch: how many rows at most, after which key (null: from the start), and what to do. */
export interface BulkBatchQuery {
  selection: BulkSelection;
  after: Row | null;
  limit: number;
  /** The checked values to set (bulkAssignments); null deletes the rows. */
  set: Row | null;
}

/** A row a batch changed: as it was and as it is (null: deleted). */
export interface BulkRowChange {
  before: Row;
  after: Row | null;
}

export interface BulkBatchOptions {
  /** Run in the batch's transaction once its rows are changed, before it commits (the audit's intent). */
  beforeCommit?: (changes: BulkRowChange[]) => Promise<void> | void;
  /** Called once the batch's first statement is handed to the driver (its transaction begun): a caller that starts
   * the next batch while this one's caller writes its record waits for this, so the database works meanwhile. */
  onStatement?: () => void;
}

const isReadOnly = (column: Column) =>
  column.isGuid || column.isIdentity || column.isHidden || column.isComputed;

/** The key a bulk change walks: the row key (identity, guid or primary key); a 400 for a table without one. */
export function bulkKey(table: Table): string[] {
  const key = rowKey(table);
  if (key.length === 0)
    throw badInput(
      `${table.name} has no primary key, identity or guid, so its rows cannot be changed in bulk: one row cannot be told from another.`,
    );
  return key;
}

/**
 * The values of an update checked against their columns: unknown columns, columns that cannot be set (identity, guid,
 * computed, hidden, key and foreign-key columns, as in the row editor) and values that do not parse are a 400 naming
 * the column. Answers the checked wire values.
 */
export function checkBulkSet(table: Table, set: Row): Row {
  if (table.isView) throw badInput(`${table.name} is a view; its rows cannot be changed here.`);
  if (!table.identityColumn && !table.guidColumn)
    throw badInput(
      `Rows of ${table.name} cannot be changed because it has no identity or guid column: delete the rows and add them again.`,
    );
  const key = new Set([...rowKey(table), ...table.primaryKey]);
  const checked: Row = {};
  for (const [name, value] of Object.entries(set)) {
    const column = table.columns.find((c) => c.name === name);
    if (!column) throw badInput(`${name} is not a column of ${table.name}.`);
    if (isReadOnly(column)) throw badInput(`${name} is filled in by the database and cannot be set.`);
    if (key.has(name)) throw badInput(`${name} is part of the row key and cannot be set in bulk.`);
    if (column.isForeignKey) throw badInput(`${name} cannot be changed in an existing row.`);
    const given = checkValue(column, value);
    if (given === null && !column.isNullable) throw badInput(`${name} cannot be empty: give it a value.`);
    checked[name] = given === null ? null : Buffer.isBuffer(given) ? given.toString('base64') : given;
  }
  return checked;
}

/** The rows of a selection as one predicate (null: every row). Checks the filter (a 400 naming the condition). */
function selectionPredicate(
  adapter: EngineAdapter,
  table: Table,
  selection: BulkSelection,
): SqlFragment | null {
  const parts: SqlFragment[] = [];
  // filterPredicate checks the filter and answers null when it keeps every row.
  const filtered = selection.where ? filterPredicate(adapter, table, selection.where) : null;
  if (filtered) parts.push(filtered);
  if (selection.keys) parts.push(keysMatch(adapter, table, selection.keys));
  if (parts.length === 0) return null;
  return sql.join(parts, sql` and `);
}

/** `key in (…)` for a one-column key, else an or of each key's columns; a key missing a column is a 400. */
function keysMatch(adapter: EngineAdapter, table: Table, keys: Row[]): SqlFragment {
  const names = bulkKey(table);
  if (keys.length === 0) return sql`1 = 0`;
  for (const key of keys) {
    const missing = names.filter((name) => key[name] === undefined || key[name] === null);
    if (missing.length) throw badInput(`Each selected row needs its key: ${names.join(', ')}.`);
  }
  const [only] = names;
  const column = table.columns.find((c) => c.name === only);
  if (names.length === 1 && only !== undefined && column) {
    const values = keys.map((key) => {
      const checked = checkValue(column, key[only] ?? null);
      if (checked === null) throw badInput(`${only}: a key cannot be empty.`);
      return sql`${adapter.encodeValue(column, checked)}`;
    });
    return sql`${sql.id(only)} in (${sql.join(values)})`;
  }
  return sql`(${sql.join(
    keys.map((key) => sql`(${keyPredicate(adapter, table, names, key)})`),
    sql` or `,
  )})`;
}

/** The rows after `after` in key order: `k1 > a1 or (k1 = a1 and k2 > a2) …`. */
function afterKey(adapter: EngineAdapter, table: Table, names: string[], after: Row): SqlFragment {
  const bound = (name: string) => {
    const column = table.columns.find((c) => c.name === name);
    const value = after[name];
    if (!column || value === undefined || value === null) throw badInput(`${name}: a key cannot be empty.`);
    const checked = checkValue(column, value);
    return checked === null ? null : adapter.encodeValue(column, checked);
  };
  const alternatives = names.map((name, i) => {
    const equal = names.slice(0, i).map((earlier) => sql`${sql.id(earlier)} = ${bound(earlier)}`);
    return sql`(${sql.join([...equal, sql`${sql.id(name)} > ${bound(name)}`], sql` and `)})`;
  });
  return sql`(${sql.join(alternatives, sql` or `)})`;
}

/** Counts the selection's rows, stopping after `cap + 1`. */
export async function countBulkRows(
  adapter: EngineAdapter,
  table: Table,
  selection: BulkSelection,
  cap: number,
): Promise<number> {
  return countUpTo(adapter, table, cap, selectionPredicate(adapter, table, selection) ?? sql`1 = 1`);
}

/**
 * How many rows of `referencing` point through `foreignKey` at the selection's rows, stopping after `cap + 1`: one join
 * of the selection (its referenced columns, in a derived table so its filter names only this table's columns) with the
 * referencing table. Cheap only when the referencing columns lead an index (referencingColumnsIndexed): the caller
 * asks only then.
 */
export async function countBulkReferencingRows(
  adapter: EngineAdapter,
  table: Table,
  selection: BulkSelection,
  referencing: Table,
  foreignKey: Pick<ForeignKey, 'columns' | 'referencedColumns'>,
  cap: number,
): Promise<number> {
  const predicate = selectionPredicate(adapter, table, selection) ?? sql`1 = 1`;
  const pairs = foreignKey.columns.map((column, i) => {
    const referenced = foreignKey.referencedColumns[i];
    if (referenced === undefined) throw badInput(`The foreign key on ${column} names no referenced column.`);
    return { column, referenced };
  });
  const picked = sql.join(pairs.map((pair) => sql.id(pair.referenced)));
  const on = sql.join(
    pairs.map((pair) => sql`${sql.id('r', pair.column)} = ${sql.id('s', pair.referenced)}`),
    sql` and `,
  );
  const from = sql`(select ${picked} from ${sql.id(table.schema, table.name)} where ${predicate}) as s join ${sql.id(referencing.schema, referencing.name)} as r on ${on}`;
  const inner = engineCapabilities(adapter.kind).capsRowsWithTop
    ? sql`select top (${cap + 1}) 1 as one from ${from}`
    : sql`select 1 as one from ${from} ${adapter.limitOffset(cap + 1, 0)}`;
  const rows = await sql<{
    n: number | string | bigint;
  }>`select count(*) as n from (${inner}) as counted`.execute(adapter.db);
  return Number(rows.rows[0]?.n ?? 0);
}

async function selectBatch(
  adapter: EngineAdapter,
  executor: Executor,
  table: Table,
  query: { selection: BulkSelection; after: Row | null; limit: number },
  lock: boolean,
): Promise<Row[]> {
  const names = bulkKey(table);
  const parts: SqlFragment[] = [];
  const predicate = selectionPredicate(adapter, table, query.selection);
  if (predicate) parts.push(predicate);
  if (query.after) parts.push(afterKey(adapter, table, names, query.after));
  const where = parts.length ? sql.join(parts, sql` and `) : sql`1 = 1`;
  const order = sql.join(names.map((name) => sql.id(name)));
  const locking = lock ? adapter.rowLock : undefined;
  const from = sql`${sql.id(table.schema, table.name)} ${locking?.tableHint ?? sql``}`;
  const statement = engineCapabilities(adapter.kind).capsRowsWithTop
    ? sql<
        Record<string, unknown>
      >`select top (${query.limit}) ${selectList(adapter, table)} from ${from} where ${where} order by ${order}`
    : sql<
        Record<string, unknown>
      >`select ${selectList(adapter, table)} from ${from} where ${where} order by ${order} ${adapter.limitOffset(query.limit, 0)} ${locking?.clause ?? sql``}`;
  const found = await statement.execute(executor);
  return found.rows.map((raw) => decodeRow(adapter, table, raw));
}

/** The first rows of the selection in key order, as they are (the preview's sample). */
export function readBulkRows(
  adapter: EngineAdapter,
  table: Table,
  query: { selection: BulkSelection; after: Row | null; limit: number },
): Promise<Row[]> {
  return selectBatch(adapter, adapter.db, table, query, false);
}

const keyText = (names: string[], row: Row) => JSON.stringify(names.map((name) => row[name] ?? null));

/** The batch's selection as its parts: the predicate with the seek past `after` (every row: `1 = 1`), and the order. */
function batchWhere(
  adapter: EngineAdapter,
  table: Table,
  query: { selection: BulkSelection; after: Row | null },
) {
  const names = bulkKey(table);
  const parts: SqlFragment[] = [];
  const predicate = selectionPredicate(adapter, table, query.selection);
  if (predicate) parts.push(predicate);
  if (query.after) parts.push(afterKey(adapter, table, names, query.after));
  return {
    names,
    where: parts.length ? sql.join(parts, sql` and `) : sql`1 = 1`,
    order: sql.join(names.map((name) => sql.id(name))),
  };
}

/**
 * PostgreSQL's batch as one statement: the rows picked in key order under the row lock (`for update` in a CTE: under
 * READ COMMITTED it waits for a concurrent writer and takes the row as that one left it, so "before" is what the
 * change replaces, as with the separate select), changed or deleted through a join with them, and answered both ways
 * (`returning` the picked row as before, the table's as after), ordered by the key in the database's own collation.
 * Where the other engines send the batch's keys back as 1,000 parameters twice (`key in (…)`) and read the rows a
 * third time, this is one statement of a handful of parameters (bench:bulk, decision 0068).
 */
async function postgresBatch(
  adapter: EngineAdapter,
  executor: Executor,
  table: Table,
  query: BulkBatchQuery,
  set: Row | null,
): Promise<BulkRowChange[]> {
  const { names, where, order } = batchWhere(adapter, table, query);
  const target = sql.id(table.schema, table.name);
  const columns = table.columns.map((c) => c.name);
  const picked = sql`select ${sql.join(columns.map((name) => sql.id(name)))} from ${target} where ${where} order by ${order} ${adapter.limitOffset(query.limit, 0)} for update`;
  // The join alone lets the planner hash the whole table; the first key column `= any(array(…))` of the picked keys
  // makes it an index scan of the batch's rows.
  const [first] = names;
  const on = sql.join(
    [
      ...names.map((name) => sql`${sql.id('dbui_t', name)} = ${sql.id('dbui_p', name)}`),
      sql`${sql.id('dbui_t', first ?? '')} = any(array(select ${sql.id(first ?? '')} from dbui_p))`,
    ],
    sql` and `,
  );
  const before = columns.map((name, i) => sql`${sql.id('dbui_p', name)} as ${sql.id(`b${i}`)}`);
  const after = columns.map((name, i) => sql`${sql.id('dbui_t', name)} as ${sql.id(`a${i}`)}`);
  const change =
    set === null
      ? sql`delete from ${target} as dbui_t using dbui_p where ${on} returning ${sql.join(before)}`
      : sql`update ${target} as dbui_t set ${assignmentsOf(adapter, table, set)} from dbui_p where ${on} returning ${sql.join([...before, ...after])}`;
  const keyOrder = sql.join(names.map((name) => sql.id(`b${columns.indexOf(name)}`)));
  const found = await sql<
    Record<string, unknown>
  >`with dbui_p as (${picked}), dbui_c as (${change}) select * from dbui_c order by ${keyOrder}`.execute(
    executor,
  );
  const side = (raw: Record<string, unknown>, prefix: string) => {
    const row: Row = {};
    table.columns.forEach((column, i) => {
      row[column.name] = adapter.decodeValue(column, raw[`${prefix}${i}`]);
    });
    return row;
  };
  return found.rows.map((raw) => ({ before: side(raw, 'b'), after: set === null ? null : side(raw, 'a') }));
}

/** `c1 = v1, c2 = v2` of an update's checked values. */
function assignmentsOf(adapter: EngineAdapter, table: Table, set: Row): SqlFragment {
  return sql.join(
    Object.entries(set).map(([name, value]) => {
      const column = table.columns.find((c) => c.name === name);
      // NULL is written as the literal, as row-writes.ts does (drivers type a bound null differently).
      if (!column || value === null) return sql`${sql.id(name)} = null`;
      return sql`${sql.id(name)} = ${adapter.encodeValue(column, value)}`;
    }),
  );
}

/** One batch of a bulk change in one transaction (see above); answers the rows it changed, in key order. */
export async function bulkBatch(
  adapter: EngineAdapter,
  table: Table,
  query: BulkBatchQuery,
  options: BulkBatchOptions = {},
): Promise<BulkRowChange[]> {
  if (table.isView) throw badInput(`${table.name} is a view; its rows cannot be changed here.`);
  const names = bulkKey(table);
  const set = query.set === null ? null : checkBulkSet(table, query.set);
  return adapter.db.transaction().execute(async (trx) => {
    let changes: BulkRowChange[];
    if (adapter.kind === 'postgres') {
      const statement = postgresBatch(adapter, trx, table, query, set);
      options.onStatement?.();
      changes = await statement;
      if (changes.length === 0) return [];
    } else {
      const selected = selectBatch(adapter, trx, table, query, true);
      options.onStatement?.();
      const rows = await selected;
      if (rows.length === 0) return [];
      const match = keysMatch(adapter, table, rows);
      const target = sql.id(table.schema, table.name);
      if (set === null) {
        await sql`delete from ${target} where ${match}`.execute(trx);
        changes = rows.map((before) => ({ before, after: null }));
      } else {
        await sql`update ${target} set ${assignmentsOf(adapter, table, set)} where ${match}`.execute(trx);
        const again = await sql<
          Record<string, unknown>
        >`select ${selectList(adapter, table)} from ${target} where ${match}`.execute(trx);
        const afterByKey = new Map(
          again.rows.map((raw) => {
            const row = decodeRow(adapter, table, raw);
            return [keyText(names, row), row] as const;
          }),
        );
        changes = rows.map((before) => ({ before, after: afterByKey.get(keyText(names, before)) ?? null }));
      }
    }
    await options.beforeCommit?.(changes);
    return changes;
  });
}

/** A row of an audited batch to put back: its key, and the row before and after the change being undone. */
export interface RevertRow {
  key: Row;
  before: Row | null;
  after: Row | null;
}

/** A row an undo batch changed: as it was (null: absent) and as it is now. */
export interface RevertChange {
  before: Row | null;
  after: Row | null;
}

export interface RevertOptions {
  /** Given the rows as they are now, in the order of `rows` (null: no row has the key), under the row lock and before
   * anything is written; throws to refuse (the undo's "changed since" check). */
  check?: (current: (Row | null)[]) => Promise<void> | void;
  beforeCommit?: (changes: RevertChange[]) => Promise<void> | void;
}

/** Whether a column may be written back by an undo of an update (the row editor's rules, and not the key). */
const writableBack = (table: Table, column: Column) =>
  !isReadOnly(column) && !column.isForeignKey && !rowKey(table).includes(column.name);

/** Parameters one write-back statement stays under: SQL Server takes at most 2,100 a statement. */
const WRITE_BACK_PARAMETERS = 2000;

/**
 * The updates that write values back, each row its own (the values an update replaced differ row by row), as few
 * statements as the parameter limit allows rather than one a row: `set c = case when <key of row 1> then v1 when …
 * else c end where <keys>`. The else branch is the column itself, so PostgreSQL types the untyped parameters as the
 * column (a CASE of parameters alone would be text), and a row whose c is not written back keeps its value.
 */
function writeBackStatements(
  adapter: EngineAdapter,
  table: Table,
  names: string[],
  rows: { key: Row; values: Record<string, unknown> }[],
): { execute(executor: Executor): Promise<unknown> }[] {
  if (rows.length === 0) return [];
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row.values)))];
  // Per row at most: its key in each column's WHEN and in the WHERE, and a value a column.
  const perRow = names.length * (columns.length + 1) + columns.length;
  const size = Math.max(1, Math.floor(WRITE_BACK_PARAMETERS / perRow));
  const target = sql.id(table.schema, table.name);
  const statements = [];
  for (let start = 0; start < rows.length; start += size) {
    const chunk = rows.slice(start, start + size);
    // Only the columns this chunk writes: a CASE needs at least one WHEN.
    const written = columns.filter((name) => chunk.some((row) => name in row.values));
    const assignments = written.map((name) => {
      const whens = chunk
        .filter((row) => name in row.values)
        .map((row) => {
          const value = row.values[name];
          return sql`when ${keyPredicate(adapter, table, names, row.key)} then ${value === null ? sql`null` : value}`;
        });
      return sql`${sql.id(name)} = case ${sql.join(whens, sql` `)} else ${sql.id(name)} end`;
    });
    const match = keysMatch(
      adapter,
      table,
      chunk.map((row) => row.key),
    );
    statements.push(sql`update ${target} set ${sql.join(assignments)} where ${match}`);
  }
  return statements;
}

/** Whether PostgreSQL reads a column's value from JSON as it reads the same text bound as a parameter: its text input
 * (jsonb_populate_recordset). Not for json columns (a JSON string would stay a string), binary (base64 on the
 * wire) and bit ones. */
const jsonTyped = (column: Column) =>
  ['Text', 'Number', 'Date', 'Time', 'guid'].includes(column.typeGroup) && !/json/i.test(column.type);

const plainValue = (value: unknown) =>
  value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/**
 * PostgreSQL's write-back of an undo batch, one statement for each set of columns written (one, for a bulk update):
 * the rows' keys and values as one JSON parameter read as the table's own row type (`jsonb_populate_recordset(null::
 * <table>, $1)`, so each value is typed as its column), joined to the table by key: `update … set c = v.c from v`.
 * Where the CASE of the other engines compares every row's key in every WHEN (quadratic in the rows of a statement),
 * this is an index probe a row. Answers the rows as the statements left them, by key text; null when a column does
 * not fit (jsonTyped), for the CASE statements to do it.
 */
async function postgresWriteBack(
  adapter: EngineAdapter,
  executor: Executor,
  table: Table,
  names: string[],
  rows: { key: Row; values: Record<string, unknown> }[],
): Promise<Map<string, Row> | null> {
  const groups = writeBackGroups(table, names, rows);
  if (!groups) return null;
  const target = sql.id(table.schema, table.name);
  const [first] = names;
  const on = sql.join(
    [
      ...names.map((name) => sql`${sql.id('dbui_t', name)} = ${sql.id('dbui_v', name)}`),
      sql`${sql.id('dbui_t', first ?? '')} = any(array(select ${sql.id(first ?? '')} from dbui_v))`,
    ],
    sql` and `,
  );
  const returned = sql.join(table.columns.map((c) => sql`${sql.id('dbui_t', c.name)} as ${sql.id(c.name)}`));
  const written = new Map<string, Row>();
  for (const group of groups) {
    const assignments = sql.join(
      group.columns.map((name) => sql`${sql.id(name)} = ${sql.id('dbui_v', name)}`),
    );
    const values = group.rows.map((row) => ({ ...row.key, ...row.values }));
    const found = await sql<
      Record<string, unknown>
    >`with dbui_v as (select * from jsonb_populate_recordset(null::${target}, ${JSON.stringify(values)}::jsonb)) update ${target} as dbui_t set ${assignments} from dbui_v where ${on} returning ${returned}`.execute(
      executor,
    );
    for (const raw of found.rows) {
      const row = decodeRow(adapter, table, raw);
      written.set(keyText(names, row), row);
    }
  }
  return written;
}

/** A row an undo writes back: its key and the values it gets again. */
type WriteBackRow = { key: Row; values: Record<string, unknown> };

/**
 * The rows of a write-back grouped by the columns they write (one joined statement a group), or null when a key or a
 * value does not fit a joined statement (jsonTyped, plainValue), for the CASE statements to do it.
 */
function writeBackGroups(
  table: Table,
  names: string[],
  rows: WriteBackRow[],
): { columns: string[]; rows: WriteBackRow[] }[] | null {
  const columnOf = (name: string) => table.columns.find((c) => c.name === name);
  const groups = new Map<string, { columns: string[]; rows: WriteBackRow[] }>();
  for (const row of rows) {
    const columns = Object.keys(row.values);
    for (const name of [...names, ...columns]) {
      const column = columnOf(name);
      const value = name in row.values ? row.values[name] : row.key[name];
      if (!column || !jsonTyped(column) || !plainValue(value)) return null;
    }
    const id = JSON.stringify(columns);
    let group = groups.get(id);
    if (!group) groups.set(id, (group = { columns, rows: [] }));
    group.rows.push(row);
  }
  return [...groups.values()];
}

/**
 * MariaDB/MySQL's write-back of an undo batch: for each set of columns written, one update joined by key to a derived
 * table of the rows' keys and values (`update t join (select ? as k, ? as c union all select ?, ? …) v on t.k = v.k
 * set t.c = v.c`), an index probe a row where the CASE is quadratic. Null when a column does not fit (jsonTyped: the
 * derived table's values are assigned as literals would be), for the CASE statements to do it.
 */
function mysqlWriteBack(
  table: Table,
  names: string[],
  rows: { key: Row; values: Record<string, unknown> }[],
): SqlFragment[] | null {
  const groups = writeBackGroups(table, names, rows);
  if (!groups) return null;
  const target = sql.id(table.schema, table.name);
  const on = sql.join(
    names.map((name) => sql`${sql.id('dbui_t', name)} = ${sql.id('dbui_v', name)}`),
    sql` and `,
  );
  const value = (value: unknown) => (value === null ? sql`null` : sql`${value}`);
  return groups.map((group) => {
    const selects = group.rows.map((row, i) => {
      const cells = [
        ...names.map((name) => [name, value(row.key[name] ?? null)] as const),
        ...group.columns.map((name) => [name, value(row.values[name])] as const),
      ];
      // The first select names the derived table's columns.
      return i === 0
        ? sql`select ${sql.join(cells.map(([name, cell]) => sql`${cell} as ${sql.id(name)}`))}`
        : sql`select ${sql.join(cells.map(([, cell]) => cell))}`;
    });
    const assignments = sql.join(
      group.columns.map((name) => sql`${sql.id('dbui_t', name)} = ${sql.id('dbui_v', name)}`),
    );
    return sql`update ${target} as dbui_t join (${sql.join(selects, sql` union all `)}) as dbui_v on ${on} set ${assignments}`;
  });
}

/**
 * One batch of an undo of a bulk change, in one transaction: the rows locked and handed to `check`, then an update's
 * rows get back the values it replaced (only the columns it changed that may be written), a delete's rows are
 * inserted again as they were (identity values included: an engine that refuses them fails the batch).
 */
export async function revertBatch(
  adapter: EngineAdapter,
  table: Table,
  query: { change: 'update' | 'delete'; rows: RevertRow[] },
  options: RevertOptions = {},
): Promise<RevertChange[]> {
  if (table.isView) throw badInput(`${table.name} is a view; its rows cannot be changed here.`);
  const names = bulkKey(table);
  const keys = query.rows.map((row) => row.key);
  return adapter.db.transaction().execute(async (trx) => {
    const found = await selectBatch(
      adapter,
      trx,
      table,
      { selection: { keys }, after: null, limit: keys.length },
      true,
    );
    const byKey = new Map(found.map((row) => [keyText(names, row), row]));
    const current = keys.map((key) => byKey.get(keyText(names, key)) ?? null);
    await options.check?.(current);
    const writeBacks: { key: Row; values: Record<string, unknown> }[] = [];
    for (const row of query.rows) {
      const before = row.before;
      if (!before) continue;
      const values: Record<string, unknown> = {};
      for (const column of table.columns) {
        const value = before[column.name];
        if (value === undefined) continue;
        if (query.change === 'update') {
          if (!writableBack(table, column)) continue;
          if (JSON.stringify(value) === JSON.stringify(row.after?.[column.name] ?? null)) continue;
        } else if (column.isComputed || column.isHidden) continue;
        const checked = checkValue(column, value);
        values[column.name] = checked === null ? null : adapter.encodeValue(column, checked);
      }
      if (query.change === 'delete') await adapter.insertRow(trx, table, values, names);
      else if (Object.keys(values).length > 0) writeBacks.push({ key: row.key, values });
    }
    const written =
      adapter.kind === 'postgres' && query.change === 'update'
        ? await postgresWriteBack(adapter, trx, table, names, writeBacks)
        : null;
    let changes: RevertChange[];
    if (written) {
      // The rows not written back are as they were read under their lock.
      changes = keys.map((key, i) => ({
        before: current[i] ?? null,
        after: written.get(keyText(names, key)) ?? current[i] ?? null,
      }));
    } else {
      const joined =
        adapter.kind === 'mysql' && query.change === 'update'
          ? mysqlWriteBack(table, names, writeBacks)
          : null;
      for (const statement of joined ?? writeBackStatements(adapter, table, names, writeBacks))
        await statement.execute(trx);
      const again = await selectBatch(
        adapter,
        trx,
        table,
        { selection: { keys }, after: null, limit: keys.length },
        false,
      );
      const nowByKey = new Map(again.map((row) => [keyText(names, row), row]));
      changes = keys.map((key, i) => ({
        before: current[i] ?? null,
        after: nowByKey.get(keyText(names, key)) ?? null,
      }));
    }
    await options.beforeCommit?.(changes);
    return changes;
  });
}
