import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Column, Row, Table } from '#common/contract/sql.ts';
import type { DeleteOptions, RestoredRow, RestoreOptions, RowChange, UpsertOptions } from './engine.ts';
import { formMessages, rowVersionMessages } from '#common/messages.ts';
import type { EngineAdapter, Executor } from './adapter.ts';
import { badInput, EngineError } from './engine-error.ts';
import { decodeRow, selectList } from './row-pages.ts';
import { refuseChangedSince, takeRowVersion } from './row-version.ts';
import { checkValue } from './wire-values.ts';

/*
 * Row writes, each in one transaction, following the spec's row editor rules: guid, identity, hidden and computed
 * columns are read-only; in an existing row foreign-key columns are read-only too, and every column is when the
 * table has neither identity nor guid (such rows can be added and deleted, not changed).
 */

/** The columns that identify a row: identity, else guid, else the primary key. */
export function rowKey(table: Table): string[] {
  if (table.identityColumn) return [table.identityColumn];
  if (table.guidColumn) return [table.guidColumn];
  return table.primaryKey;
}

const isReadOnly = (column: Column) =>
  column.isGuid || column.isIdentity || column.isHidden || column.isComputed;

function columnsOf(table: Table, row: Row): Map<Column, Row[string]> {
  const values = new Map<Column, Row[string]>();
  for (const [name, value] of Object.entries(row)) {
    const column = table.columns.find((c) => c.name === name);
    if (!column) throw badInput(`${name} is not a column of ${table.name}.`);
    values.set(column, value);
  }
  return values;
}

function refuseView(table: Table): void {
  if (table.isView) throw badInput(`${table.name} is a view; its rows cannot be changed here.`);
}

/** Inserts or updates one row; answers it as it was before (null for a new row) and as the database holds it now.
 * A row sent with its version (ROW_VERSION_KEY) is updated only while it is still that version, else a 409 with the
 * row as it is now (row-version.ts); an insert has no row read before, so a version sent with it is not checked. */
export async function upsertRow(
  adapter: EngineAdapter,
  table: Table,
  sent: Row,
  options: UpsertOptions = {},
): Promise<RowChange> {
  refuseView(table);
  // The version the caller read the row at (decision 0045): never a column; checked against the row under its lock.
  const { values: row, version } = takeRowVersion(table, sent);
  const values = columnsOf(table, row);
  const key = rowKey(table);
  const keyGiven = key.length > 0 && key.every((name) => row[name] !== undefined && row[name] !== null);
  return adapter.db.transaction().execute(async (trx) => {
    const existing = keyGiven ? await selectByKey(adapter, trx, table, key, row, 'lock') : undefined;
    let change: RowChange;
    if (existing) {
      const before = decodeRow(adapter, table, existing);
      await options.beforeWrite?.('update', before);
      refuseChangedSince(table, before, version, rowVersionMessages.changedSince);
      change = { before, after: await updateRow(adapter, trx, table, values, key, row, existing) };
    } else {
      if (keyGiven && (table.identityColumn || table.guidColumn)) {
        throw new EngineError(404, 'This row no longer exists: it may have been deleted. Reload the page.');
      }
      await options.beforeWrite?.('insert', null);
      change = { before: null, after: await insertRow(adapter, trx, table, values) };
    }
    await options.beforeCommit?.(change);
    return change;
  });
}

async function insertRow(
  adapter: EngineAdapter,
  trx: Executor,
  table: Table,
  values: Map<Column, Row[string]>,
): Promise<Row> {
  const insert: Record<string, unknown> = {};
  for (const column of table.columns) {
    const value = values.get(column);
    if (isReadOnly(column)) {
      if (value !== undefined && value !== null) {
        throw badInput(`${column.name} is filled in by the database and cannot be set.`);
      }
      // A guid column without a default is filled in here, so a new row always has its key.
      if (column.isGuid && !column.isIdentity && !column.isComputed && column.defaultValue === null) {
        insert[column.name] = adapter.encodeValue(column, randomUUID());
      }
      continue;
    }
    const checked = checkValue(column, value ?? null);
    if (checked === null) {
      if (value === undefined && column.defaultValue !== null) continue;
      if (!column.isNullable) {
        if (column.typeGroup === 'bit') {
          insert[column.name] = adapter.encodeValue(column, false);
          continue;
        }
        throw badInput(formMessages.required(column.name));
      }
      insert[column.name] = null;
      continue;
    }
    insert[column.name] = adapter.encodeValue(column, checked);
  }
  await checkReferences(trx, table, insert);
  const key = rowKey(table);
  const keyValues = await adapter.insertRow(trx, table, insert, key);
  const saved = key.length ? await selectByKey(adapter, trx, table, key, keyValues) : undefined;
  if (!saved) return decodeRow(adapter, table, insert);
  return decodeRow(adapter, table, saved);
}

async function updateRow(
  adapter: EngineAdapter,
  trx: Executor,
  table: Table,
  values: Map<Column, Row[string]>,
  key: string[],
  row: Row,
  existing: Record<string, unknown>,
): Promise<Row> {
  if (!table.identityColumn && !table.guidColumn) {
    throw badInput(
      `Rows of ${table.name} cannot be changed because it has no identity or guid column: delete the row and add it again.`,
    );
  }
  const current = decodeRow(adapter, table, existing);
  const changes: Record<string, unknown> = {};
  for (const [column, value] of values) {
    if (key.includes(column.name)) continue;
    const readOnly = isReadOnly(column) || column.isForeignKey;
    if (readOnly) {
      if (value !== undefined && !sameValue(value, current[column.name])) {
        throw badInput(
          `${column.name} cannot be changed${column.isForeignKey ? ' in an existing row' : ''}.`,
        );
      }
      continue;
    }
    const checked = checkValue(column, value);
    if (checked === null && !column.isNullable) {
      throw badInput(
        column.typeGroup === 'bit'
          ? `${column.name} must be true or false.`
          : formMessages.required(column.name),
      );
    }
    changes[column.name] = checked === null ? null : adapter.encodeValue(column, checked);
  }
  if (Object.keys(changes).length > 0) {
    await checkReferences(trx, table, { ...existing, ...changes });
    // NULL is written as the literal: a bound null is typed by some drivers (tedious) and refused by binary columns.
    const assignments = sql.join(
      Object.entries(changes).map(
        ([name, value]) => sql`${sql.id(name)} = ${value === null ? sql`null` : value}`,
      ),
    );
    await sql`update ${sql.id(table.schema, table.name)} set ${assignments} where ${keyPredicate(adapter, table, key, row)}`.execute(
      trx,
    );
  }
  const saved = await selectByKey(adapter, trx, table, key, row);
  if (!saved)
    throw new EngineError(404, 'This row no longer exists: it may have been deleted. Reload the page.');
  return decodeRow(adapter, table, saved);
}

/** Deletes one row by its key and answers it as it was; a 404 when it is gone already, a 409 when it was sent with
 * its version and has changed since. */
export async function deleteRow(
  adapter: EngineAdapter,
  table: Table,
  sent: Row,
  options: DeleteOptions = {},
): Promise<Row> {
  refuseView(table);
  const { values: row, version } = takeRowVersion(table, sent);
  const key = rowKey(table);
  if (key.length === 0) {
    throw badInput(
      `${table.name} has no primary key, identity or guid, so one row cannot be told from another.`,
    );
  }
  const missing = key.filter((name) => row[name] === undefined || row[name] === null);
  if (missing.length) throw badInput(`To delete a row, send its key: ${missing.join(', ')}.`);
  return adapter.db.transaction().execute(async (trx) => {
    const existing = await selectByKey(adapter, trx, table, key, row, 'lock');
    if (existing) {
      const current = decodeRow(adapter, table, existing);
      await options.beforeDelete?.(current);
      refuseChangedSince(table, current, version, rowVersionMessages.changedSinceDelete);
    }
    const result =
      await sql`delete from ${sql.id(table.schema, table.name)} where ${keyPredicate(adapter, table, key, row)}`.execute(
        trx,
      );
    if (Number(result.numAffectedRows ?? 0n) === 0) {
      throw new EngineError(404, 'This row no longer exists: it may have been deleted. Reload the page.');
    }
    const deleted = decodeRow(adapter, table, existing ?? {});
    await options.beforeCommit?.(deleted);
    return deleted;
  });
}

/** The row with this key as the database holds it now (null when there is none), read under the row lock. */
export async function readRow(adapter: EngineAdapter, table: Table, key: Row): Promise<Row | null> {
  const names = rowKey(table);
  if (names.length === 0 || names.some((name) => key[name] === undefined || key[name] === null)) {
    throw badInput(`To read a row of ${table.name}, give its key: ${names.join(', ') || 'it has none'}.`);
  }
  // A locking read waits for a transaction that holds the row (a write not yet committed) to end.
  return adapter.db.transaction().execute(async (trx) => {
    const found = await selectByKey(adapter, trx, table, names, key, table.isView ? 'read' : 'lock');
    return found ? decodeRow(adapter, table, found) : null;
  });
}

/**
 * Inserts a deleted row again (undo of a delete). Unlike an insert from the row editor it writes the identity and
 * guid values too, so the row comes back under its old key. Engines that number the identity themselves may refuse
 * an explicit value (PostgreSQL GENERATED ALWAYS, SQL Server without IDENTITY_INSERT): then the row is inserted
 * once more without it and gets a new identity, and `keptKey` says so. Computed and hidden columns are left to the
 * database. A row with the same key already there is a 409.
 */
export async function restoreRow(
  adapter: EngineAdapter,
  table: Table,
  row: Row,
  options: RestoreOptions = {},
): Promise<RestoredRow> {
  refuseView(table);
  const key = rowKey(table);
  const keyGiven = key.length > 0 && key.every((name) => row[name] !== undefined && row[name] !== null);
  const identity = table.identityColumn;
  let inserted = false;
  const insertAgain = (withIdentity: boolean) =>
    adapter.db.transaction().execute(async (trx) => {
      if (keyGiven && (await selectByKey(adapter, trx, table, key, row))) {
        throw new EngineError(
          409,
          'A row with the same key exists again, so the deleted row cannot be put back.',
        );
      }
      const insert: Record<string, unknown> = {};
      for (const [column, value] of columnsOf(table, row)) {
        if (column.isComputed || column.isHidden || value === undefined) continue;
        if (column.isIdentity && !withIdentity) continue;
        const checked = checkValue(column, value);
        insert[column.name] = checked === null ? null : adapter.encodeValue(column, checked);
      }
      await checkReferences(trx, table, insert);
      const keyValues = await adapter.insertRow(trx, table, insert, key);
      const saved = key.length ? await selectByKey(adapter, trx, table, key, keyValues) : undefined;
      const restored = { row: decodeRow(adapter, table, saved ?? insert), keptKey: withIdentity };
      inserted = true;
      await options.beforeCommit?.(restored);
      return restored;
    });
  if (!identity || row[identity] === undefined || row[identity] === null) {
    return insertAgain(true);
  }
  try {
    return await insertAgain(true);
  } catch (error) {
    // Our own refusals (the key exists, a value or reference does not fit) would refuse the second try too; and once
    // the row was in, the failure is not the database refusing the identity value (the caller's beforeCommit, or the
    // commit).
    if (error instanceof EngineError || inserted) throw error;
    // The database refused the statement: the explicit identity value is the one thing the second try leaves out.
    return insertAgain(false);
  }
}

export function keyPredicate(
  adapter: EngineAdapter,
  table: Table,
  key: string[],
  row: Record<string, unknown>,
) {
  return sql.join(
    key.map((name) => {
      const column = table.columns.find((c) => c.name === name);
      if (!column) throw badInput(`${name} is not a column of ${table.name}.`);
      const raw = row[name];
      const value =
        raw instanceof Uint8Array
          ? Buffer.from(raw)
          : typeof raw === 'bigint'
            ? raw
            : checkValue(column, raw as Row[string]);
      if (value === null || value === undefined) throw badInput(`${name}: a key cannot be empty.`);
      return sql`${sql.id(name)} = ${typeof value === 'bigint' ? value : adapter.encodeValue(column, value)}`;
    }),
    sql` and `,
  );
}

async function selectByKey(
  adapter: EngineAdapter,
  executor: Executor,
  table: Table,
  key: string[],
  row: Record<string, unknown>,
  lock: 'lock' | 'read' = 'read',
) {
  const locking = lock === 'lock' ? adapter.rowLock : undefined;
  const found = await sql<
    Record<string, unknown>
  >`select ${selectList(adapter, table)} from ${sql.id(table.schema, table.name)} ${locking?.tableHint ?? sql``} where ${keyPredicate(adapter, table, key, row)} ${locking?.clause ?? sql``}`.execute(
    executor,
  );
  return found.rows[0];
}

/**
 * Every foreign key the row fills in must point at an existing row: checked before writing, so the answer can say
 * which value is missing where (drivers say it in different detail, SQLite not at all).
 */
async function checkReferences(
  executor: Executor,
  table: Table,
  values: Record<string, unknown>,
): Promise<void> {
  for (const fk of table.foreignKeys) {
    const given = fk.columns.map((name) => values[name]);
    if (given.some((value) => value === null || value === undefined)) continue;
    const match = sql.join(
      fk.referencedColumns.map((name, i) => sql`${sql.id(name)} = ${given[i]}`),
      sql` and `,
    );
    const found =
      await sql`select 1 as one from ${sql.id(fk.referencedSchema, fk.referencedTable)} where ${match}`.execute(
        executor,
      );
    if (found.rows.length === 0) {
      const shown = given
        .map((value) => (Buffer.isBuffer(value) ? value.toString('hex') : String(value)))
        .join(', ');
      throw badInput(`${fk.columns.join(', ')} ${shown} does not exist in ${fk.referencedTable}.`);
    }
  }
}

const sameValue = (a: unknown, b: unknown) => String(a ?? '') === String(b ?? '');
