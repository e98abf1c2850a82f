import { sql, type ControlledTransaction } from 'kysely';
import type { Row, Table } from '#common/contract/sql.ts';
import type { DynamicSchema } from './engine.ts';
import type { EngineAdapter, Executor, SqlFragment } from './adapter.ts';
import { badInput, EngineError } from './engine-error.ts';
import { existingKeys } from './existing-keys.ts';
import { longTransactionDb } from './long-transactions.ts';
import { decodeRow, selectList } from './row-pages.ts';
import { keyPredicate, rowKey } from './row-writes.ts';
import { checkValue } from './wire-values.ts';

/*
 * The writing side of an import (issue 39, docs/decisions/0070-import-run.md), engine-neutral: rows the import's
 * checks passed are written a batch at a time, new rows by multi-row INSERT statements (as many rows a statement as
 * the parameter limit allows), rows an upsert matched by their key by one UPDATE each, read under the row lock first
 * (their "before", for the audit and the undo) and read again after. Column names come from the catalog, every value
 * is a bound parameter checked against its column (NULL written as the literal, as row-writes.ts does).
 *
 * A writer holds either one transaction for the whole import (all-or-nothing: `finish(true)` commits it, anything
 * else rolls it back) or one transaction a batch (skip mode: each batch commits on its own once `beforeCommit`, the
 * audit's intent, has run). Within a transaction a batch is written under a savepoint: when the database refuses it,
 * the batch is rolled back to the savepoint and written again a row at a time, each row under its own savepoint, so
 * the refused rows are named and (in skip mode) the others kept.
 */

/** Parameters one statement binds at most: SQL Server takes 2,100 a statement. */
const MAX_PARAMETERS = 2000;

/** A row to write: checked wire values by column name; `existing` when an upsert's key matched a row of the table. */
export interface ImportWriteRow {
  values: Row;
  existing: boolean;
}

/** A row a batch wrote: its key (rowKey), as it was (null: inserted) and as it is now. */
export interface ImportRowChange {
  key: Row;
  before: Row | null;
  after: Row | null;
}

export interface ImportBatchResult {
  /** The rows the database refused, by their index in the batch, with its reason. */
  refused: { index: number; message: string }[];
  /** What was written, in the batch's order (refused rows left out). */
  changes: ImportRowChange[];
}

export interface ImportBatchOptions {
  /** After the first refused row, write no more (all-or-nothing: the whole import is rolled back anyway). */
  stopAtFirstRefusal?: boolean;
  /** Run in the batch's transaction once its rows are written, before it commits (the audit's intent). In a writer of
   * one transaction it runs once a batch too, the commit being the import's. */
  beforeCommit?: (result: ImportBatchResult) => Promise<void> | void;
}

export interface ImportWriter {
  /** existing-keys.ts on the writer's transaction (so a held transaction is not waited for, and sees its own rows). */
  existingKeys(table: Table, columns: string[], keys: Row[]): Promise<Row[]>;
  writeBatch(rows: ImportWriteRow[], options?: ImportBatchOptions): Promise<ImportBatchResult>;
  /** Commits (true) or rolls back the writer's one transaction; nothing for a writer of a transaction a batch. */
  finish(commit: boolean): Promise<void>;
}

type Controlled = ControlledTransaction<DynamicSchema>;

/** A controlled transaction (or a savepoint of it) as the statements' executor: it runs queries as a Transaction does,
 * but its savepoint-name generics keep the compiler from seeing it as one. */
const executorOf = (trx: Controlled | ControlledTransaction<DynamicSchema, string[]>): Executor =>
  trx as unknown as Executor;

/** The key of a table's rows as the audit and undo use it (identity, guid or primary key); a 400 without one. */
export function importKey(table: Table): string[] {
  const key = rowKey(table);
  if (key.length === 0)
    throw badInput(
      `${table.name} has no primary key, identity or guid, so the rows an import writes could not be told apart for its undo.`,
    );
  return key;
}

/** A checked wire value as the statement binds it (NULL the literal). */
function bound(
  adapter: EngineAdapter,
  table: Table,
  name: string,
  value: Row[string] | undefined,
): SqlFragment {
  const column = table.columns.find((c) => c.name === name);
  if (!column) throw badInput(`${name} is not a column of ${table.name}.`);
  const checked = checkValue(column, value ?? null);
  return checked === null ? sql`null` : sql`${adapter.encodeValue(column, checked)}`;
}

/** The rows of `keys`: `k in (…)` for a one-column key (PostgreSQL plans a long OR of equalities slowly), an OR of
 * each key's columns otherwise. */
function keysWhere(adapter: EngineAdapter, table: Table, names: string[], keys: Row[]): SqlFragment {
  const [only] = names;
  if (names.length === 1 && only !== undefined)
    return sql`${sql.id(only)} in (${sql.join(keys.map((key) => bound(adapter, table, only, key[only])))})`;
  return sql.join(
    keys.map((key) => sql`(${keyPredicate(adapter, table, names, key)})`),
    sql` or `,
  );
}

/** The rows of `keys` as they are now (under the row lock when `lock`), as many keys a statement as the limit allows. */
async function readByKeys(
  adapter: EngineAdapter,
  executor: Executor,
  table: Table,
  names: string[],
  keys: Row[],
  lock: boolean,
): Promise<Map<string, Row>> {
  const found = new Map<string, Row>();
  const size = Math.max(1, Math.floor(MAX_PARAMETERS / names.length));
  const locking = lock ? adapter.rowLock : undefined;
  const from = sql`${sql.id(table.schema, table.name)} ${locking?.tableHint ?? sql``}`;
  for (let start = 0; start < keys.length; start += size) {
    const where = keysWhere(adapter, table, names, keys.slice(start, start + size));
    const answer = await sql<
      Record<string, unknown>
    >`select ${selectList(adapter, table)} from ${from} where ${where} ${locking?.clause ?? sql``}`.execute(
      executor,
    );
    for (const raw of answer.rows) {
      const row = decodeRow(adapter, table, raw);
      found.set(keyText(adapter, table, names, row), row);
    }
  }
  return found;
}

/** A key value as the database compares it, as far as it can be told (import-check.ts does the same): numbers by
 * value, GUIDs in lower case, text on MySQL and SQL Server without case or trailing spaces. */
function comparable(
  adapter: EngineAdapter,
  table: Table,
  name: string,
  value: Row[string] | undefined,
): string {
  if (value === null || value === undefined) return '\u0000';
  const column = table.columns.find((c) => c.name === name);
  const text = String(value);
  if (column?.typeGroup === 'Number') {
    const match = /^([-+]?)0*(\d*?)(?:\.(\d*?)0*)?$/.exec(text.trim());
    if (!match) return text;
    const whole = match[2] || '0';
    const fraction = match[3] ?? '';
    return `${match[1] === '-' && (whole !== '0' || fraction) ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
  }
  if (column?.typeGroup === 'guid') return text.replace(/[{}]/g, '').toLowerCase();
  if (column?.typeGroup === 'Text' && (adapter.kind === 'mysql' || adapter.kind === 'mssql'))
    return text.toLowerCase().trimEnd();
  return text;
}

const keyText = (adapter: EngineAdapter, table: Table, names: string[], row: Row) =>
  JSON.stringify(names.map((name) => comparable(adapter, table, name, row[name])));

/** The rows' keys as the statement gave them (key columns in the values), or null when one is left to the database. */
function givenKey(names: string[], values: Row): Row | null {
  const key: Row = {};
  for (const name of names) {
    const value = values[name];
    if (value === undefined || value === null) return null;
    key[name] = value;
  }
  return key;
}

/** Writes the rows: the new ones inserted (multi-row statements of rows with the same columns), the matched ones
 * updated by their key. Answers the keys written, in the rows' order, with their before rows (upserts). */
async function writeRows(
  adapter: EngineAdapter,
  executor: Executor,
  table: Table,
  rows: ImportWriteRow[],
): Promise<{ key: Row; before: Row | null }[]> {
  const names = importKey(table);
  const target = sql.id(table.schema, table.name);
  const keys: ({ key: Row; before: Row | null } | null)[] = rows.map(() => null);

  // Upserts: the matched rows read under the row lock (their before), then updated one statement each.
  const updates = rows.flatMap((row, index) => (row.existing ? [{ row, index }] : []));
  if (updates.length > 0) {
    const primary = table.primaryKey;
    const before = await readByKeys(
      adapter,
      executor,
      table,
      primary,
      updates.map(({ row }) => Object.fromEntries(primary.map((name) => [name, row.values[name] ?? null]))),
      true,
    );
    for (const { row, index } of updates) {
      const was = before.get(keyText(adapter, table, primary, row.values));
      if (!was) throw new EngineError(409, 'The row this upsert matched is no longer in the table.');
      const assignments = Object.entries(row.values)
        .filter(([name]) => !primary.includes(name))
        .map(([name, value]) => sql`${sql.id(name)} = ${bound(adapter, table, name, value)}`);
      if (assignments.length > 0)
        await sql`update ${target} set ${sql.join(assignments)} where ${keyPredicate(adapter, table, primary, row.values)}`.execute(
          executor,
        );
      keys[index] = { key: Object.fromEntries(names.map((name) => [name, was[name] ?? null])), before: was };
    }
  }

  // New rows: grouped by the columns they give (a column left to its default is not named), in statements of as many
  // rows as the parameter limit allows. A row whose key the database makes (identity) is inserted on its own, so
  // its key is known.
  const groups = new Map<string, { columns: string[]; rows: { values: Row; index: number }[] }>();
  for (const [index, row] of rows.entries()) {
    if (row.existing) continue;
    if (givenKey(names, row.values) === null) {
      const made = await adapter.insertRow(
        executor,
        table,
        Object.fromEntries(
          Object.entries(row.values).map(([name, value]) => {
            const column = table.columns.find((c) => c.name === name);
            if (!column) throw badInput(`${name} is not a column of ${table.name}.`);
            const checked = checkValue(column, value ?? null);
            return [name, checked === null ? null : adapter.encodeValue(column, checked)];
          }),
        ),
        names,
      );
      const key: Row = {};
      for (const name of names) {
        const column = table.columns.find((c) => c.name === name);
        key[name] = column ? adapter.decodeValue(column, made[name]) : null;
      }
      keys[index] = { key, before: null };
      continue;
    }
    const columns = Object.keys(row.values);
    const signature = JSON.stringify(columns);
    let group = groups.get(signature);
    if (!group) groups.set(signature, (group = { columns, rows: [] }));
    group.rows.push({ values: row.values, index });
  }
  for (const group of groups.values()) {
    if (group.columns.length === 0) continue;
    const size = Math.max(1, Math.floor(MAX_PARAMETERS / group.columns.length));
    const list = sql.join(group.columns.map((name) => sql.id(name)));
    for (let start = 0; start < group.rows.length; start += size) {
      const chunk = group.rows.slice(start, start + size);
      const tuples = chunk.map(
        ({ values }) =>
          sql`(${sql.join(group.columns.map((name) => bound(adapter, table, name, values[name])))})`,
      );
      // PostgreSQL takes the file's values for a GENERATED ALWAYS identity only when told (keepIdentity).
      const overriding =
        adapter.kind === 'postgres' &&
        group.columns.some((name) => table.columns.find((c) => c.name === name)?.isIdentity)
          ? sql` overriding system value`
          : sql``;
      await sql`insert into ${target} (${list})${overriding} values ${sql.join(tuples)}`.execute(executor);
      // …and its sequence moved past them, so the next row the database numbers does not meet one of them.
      if (adapter.kind === 'postgres')
        for (const name of group.columns.filter((n) => table.columns.find((c) => c.name === n)?.isIdentity)) {
          const quoted = [table.schema, table.name].map((part) => `"${part.replace(/"/g, '""')}"`).join('.');
          await sql`select setval(s, greatest((select max(${sql.id(name)}) from ${target}), nextval(s))) from (select pg_get_serial_sequence(${quoted}, ${name}) as s) as q where s is not null`.execute(
            executor,
          );
        }
      for (const { values, index } of chunk)
        keys[index] = { key: givenKey(names, values) ?? {}, before: null };
    }
  }
  return rows.map((row, index) => {
    const written = keys[index];
    if (written) return written;
    // A row without columns to give (everything left to defaults): inserted on its own above, so never here.
    throw new Error('An import row was neither inserted nor updated.');
  });
}

/** The batch written and read back (its after rows), in the rows' order. */
async function writeAndRead(
  adapter: EngineAdapter,
  executor: Executor,
  table: Table,
  rows: ImportWriteRow[],
): Promise<ImportRowChange[]> {
  const written = await writeRows(adapter, executor, table, rows);
  if (written.length === 0) return [];
  const names = importKey(table);
  const after = await readByKeys(
    adapter,
    executor,
    table,
    names,
    written.map((w) => w.key),
    false,
  );
  return written.map((w) => {
    const now = after.get(keyText(adapter, table, names, w.key)) ?? null;
    // The key as the database answers it (the file's `020` is the table's 20).
    const key = now ? Object.fromEntries(names.map((name) => [name, now[name] ?? null])) : w.key;
    return { key, before: w.before, after: now };
  });
}

/** A refusal as a sentence a person can act on (the engine's own words when it explains them). */
function refusal(adapter: EngineAdapter, error: unknown): string {
  if (error instanceof EngineError) return error.message;
  return adapter.explainError(error)?.message ?? 'The database refused the row.';
}

let savepoints = 0;

/** The batch under a savepoint; when refused, again a row at a time (each under its own savepoint). */
async function writeBatchIn(
  adapter: EngineAdapter,
  trx: Controlled,
  table: Table,
  rows: ImportWriteRow[],
  stopAtFirst: boolean,
): Promise<ImportBatchResult> {
  const name = `dbui_import_${(savepoints = (savepoints + 1) % 1_000_000)}`;
  const batch = await trx.savepoint(name).execute();
  try {
    const changes = await writeAndRead(adapter, executorOf(batch), table, rows);
    await batch.releaseSavepoint(name).execute();
    return { refused: [], changes };
  } catch {
    await batch.rollbackToSavepoint(name).execute();
    await batch.releaseSavepoint(name).execute();
  }
  const result: ImportBatchResult = { refused: [], changes: [] };
  for (const [index, row] of rows.entries()) {
    const one = `${name}_${index}`;
    const single = await trx.savepoint(one).execute();
    try {
      result.changes.push(...(await writeAndRead(adapter, executorOf(single), table, [row])));
      await single.releaseSavepoint(one).execute();
    } catch (error) {
      await single.rollbackToSavepoint(one).execute();
      await single.releaseSavepoint(one).execute();
      result.refused.push({ index, message: refusal(adapter, error) });
      if (stopAtFirst) break;
    }
  }
  return result;
}

/** A writer of one transaction for the whole import (`oneTransaction`) or of one transaction a batch. */
export async function openImportWriter(
  adapter: EngineAdapter,
  table: Table,
  options: { oneTransaction: boolean },
): Promise<ImportWriter> {
  if (table.isView) throw badInput(`${table.name} is a view; rows cannot be imported into it.`);
  importKey(table);
  const held = options.oneTransaction
    ? await longTransactionDb(adapter.db).startTransaction().execute()
    : null;
  let open = held !== null;
  return {
    existingKeys: (of, columns, keys) =>
      existingKeys(adapter, of, columns, keys, held ? executorOf(held) : adapter.db),
    async writeBatch(rows, batchOptions = {}) {
      if (held) {
        const result = await writeBatchIn(
          adapter,
          held,
          table,
          rows,
          batchOptions.stopAtFirstRefusal ?? false,
        );
        await batchOptions.beforeCommit?.(result);
        return result;
      }
      const trx = await adapter.db.startTransaction().execute();
      try {
        const result = await writeBatchIn(
          adapter,
          trx,
          table,
          rows,
          batchOptions.stopAtFirstRefusal ?? false,
        );
        await batchOptions.beforeCommit?.(result);
        await trx.commit().execute();
        return result;
      } catch (error) {
        await trx
          .rollback()
          .execute()
          .catch(() => undefined);
        throw error;
      }
    },
    async finish(commit) {
      if (!held || !open) return;
      open = false;
      if (commit) await held.commit().execute();
      else await held.rollback().execute();
    },
  };
}

/** A row of an import's audited batch to put back: its key, as it was (null: the import inserted it) and as the
 * import left it. */
export interface ImportRevertRow {
  key: Row;
  before: Row | null;
  after: Row | null;
}

export interface ImportRevertOptions {
  /** Given the rows as they are now, in the order of `rows` (null: no row has the key), under the row lock and before
   * anything is written; throws to refuse (the undo's "changed since" check). */
  check?: (current: (Row | null)[]) => Promise<void> | void;
  beforeCommit?: (changes: { before: Row | null; after: Row | null }[]) => Promise<void> | void;
}

/** Whether the undo writes a column's value back into an upserted row: not the key, nothing the database fills. */
const writableBack = (table: Table, column: Table['columns'][number]) =>
  !column.isIdentity &&
  !column.isGuid &&
  !column.isComputed &&
  !column.isHidden &&
  !importKey(table).includes(column.name) &&
  !table.primaryKey.includes(column.name);

/**
 * One batch of the undo of an import (decision 0070), in one transaction: the rows locked and handed to `check`, then
 * the rows the import inserted deleted by their key and the rows it updated given back the values it replaced (the
 * columns it changed that may be written). Answers each row as it was before the undo and as it is after (null:
 * deleted), in the order of `rows`.
 */
export async function revertImportBatch(
  adapter: EngineAdapter,
  table: Table,
  rows: ImportRevertRow[],
  options: ImportRevertOptions = {},
): Promise<{ before: Row | null; after: Row | null }[]> {
  if (table.isView) throw badInput(`${table.name} is a view; its rows cannot be changed here.`);
  const names = importKey(table);
  const target = sql.id(table.schema, table.name);
  const keys = rows.map((row) => row.key);
  return adapter.db.transaction().execute(async (trx) => {
    const found = await readByKeys(adapter, trx, table, names, keys, true);
    const current = keys.map((key) => found.get(keyText(adapter, table, names, key)) ?? null);
    await options.check?.(current);
    const inserted = rows.filter((row) => row.before === null).map((row) => row.key);
    const size = Math.max(1, Math.floor(MAX_PARAMETERS / names.length));
    for (let start = 0; start < inserted.length; start += size) {
      const where = keysWhere(adapter, table, names, inserted.slice(start, start + size));
      await sql`delete from ${target} where ${where}`.execute(trx);
    }
    for (const row of rows) {
      const before = row.before;
      if (before === null) continue;
      const assignments = table.columns
        .filter(
          (column) =>
            writableBack(table, column) &&
            before[column.name] !== undefined &&
            JSON.stringify(before[column.name]) !== JSON.stringify(row.after?.[column.name] ?? null),
        )
        .map(
          (column) =>
            sql`${sql.id(column.name)} = ${bound(adapter, table, column.name, before[column.name])}`,
        );
      if (assignments.length > 0)
        await sql`update ${target} set ${sql.join(assignments)} where ${keyPredicate(adapter, table, names, row.key)}`.execute(
          trx,
        );
    }
    const again = await readByKeys(adapter, trx, table, names, keys, false);
    const changes = keys.map((key, i) => ({
      before: current[i] ?? null,
      after: again.get(keyText(adapter, table, names, key)) ?? null,
    }));
    await options.beforeCommit?.(changes);
    return changes;
  });
}
