import { z } from 'zod';
import { tablePath, tableOfId } from '#common/links.ts';
import {
  row as rowSchema,
  type CellValue,
  type Row,
  type Table,
  type TableRights,
  type UndoResult,
} from '#common/contract/sql.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import { EngineError } from '#server/engines/engine-error.ts';
import { withRowVersion } from '#server/engines/row-version.ts';
import { requireTableAccess, type TableAction, type TableRef } from '#server/access/policy.ts';
import { auditedWrite, type AuditContext } from './audit-intents.ts';
import { auditedRow, changedColumns, isShortenedBinary, keyOf, type DataChange } from './row-audit.ts';
import { databaseNamed, type Caller } from '#server/access/table-access.ts';
import {
  claimUndo,
  findAudit,
  findUndoOf,
  writeAudit,
  type AuditEntry,
  type StoredAuditEntry,
} from '#server/store/audit.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import { parsedDetail } from './audit-service.ts';

/*
 * Undo and restore from the audit trail (docs/decisions/0006-access-control.md). A data change is undone by the
 * opposite change: an update by writing back the values it replaced, an insert by deleting the row, a delete by
 * inserting the row again. Administrators may undo any change; from the audit trail its author only while they still
 * hold the right the opposite change needs, and from a row's history (POST api/sql/…/history/{id}/undo,
 * docs/decisions/0026-row-history-and-last-page.md) anyone who holds that right on the table. Nothing is overwritten that changed after the audited change, and every undo is itself an
 * audited data change (`data.undo`, detail {of, change, key, before, after}); a change is undone at most once. The
 * undo's entry is its claim, an intent recorded before the change commits and confirmed after, like every data
 * change's (audit-intents.ts); a change whose own entry is still an intent is not undone.
 */

export const undoMessages = {
  notFound: 'That audit entry was not found.',
  notYours: 'You can undo only your own changes.',
  notDataChange: 'Only data changes (data.insert, data.update, data.delete) can be undone.',
  /** Issue 38: a bulk change's entry (data.bulk) is undone as a whole, as a job; said only by a call given no way to
   * start jobs (the app gives both undo calls one). */
  bulkNeedsJob: 'A bulk change is undone as a whole, as a job, which this call cannot start.',
  noTable: 'This entry does not name a table, so it cannot be undone.',
  noRow: 'This entry does not record the row, so it cannot be undone.',
  noKey: 'The table has no key, so the added row cannot be told from the others.',
  alreadyUndone: (undoId: number) => `This change was undone already (audit entry ${undoId}).`,
  notConfirmed:
    'This change is not confirmed yet: the server is still checking it against the row. Try again in a minute.',
  changedSince: (columns: string[]) =>
    `The row has changed since (${columns.join(', ')}), so undoing would overwrite newer values. Change it in the table instead.`,
  deletedSince: 'The row was deleted since, so its change cannot be undone.',
  nothingChanged: 'That change left every value as it was: there is nothing to undo.',
  /** The engine's words (row-writes.ts restoreRow), said ahead when the row's history already knows. */
  keyTaken: 'A row with the same key exists again, so the deleted row cannot be put back.',
  binary: (columns: string[]) =>
    `${columns.join(', ')} ${columns.length === 1 ? 'holds' : 'hold'} binary data, which the audit keeps only as its ` +
    'length and SHA-256, so it cannot be put back exactly. Change the row in the table instead.',
} as const;

/** The right the opposite change needs: undoing an update updates, undoing an insert deletes, a restore inserts. */
export const neededRight: Record<DataChange, Exclude<TableAction, 'read'>> = {
  update: 'update',
  insert: 'delete',
  delete: 'insert',
};

const auditedChange = z.object({
  key: rowSchema.nullish(),
  before: rowSchema.nullable(),
  after: rowSchema.nullable(),
});

export function changeOf(action: string): DataChange | null {
  return action === 'data.insert'
    ? 'insert'
    : action === 'data.update'
      ? 'update'
      : action === 'data.delete'
        ? 'delete'
        : null;
}

/** The table of a data change's target, /db/{TableId} (each name one percent-encoded segment: common/links.ts). */
function tableOf(target: string | null): TableRef | null {
  return target?.startsWith('/db/') ? tableOfId(target.slice('/db/'.length)) : null;
}

const same = (a: CellValue | undefined, b: CellValue | undefined) =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Refuses (409) when the row as it is now differs from the row as the audited change left it. */
function refuseIfChanged(table: Table, current: Row, after: Row): void {
  const changed = changedColumns(table, current, after);
  if (changed.length) throw new ApiError(409, undoMessages.changedSince(changed));
}

/** Refuses (409) when a value to write back is binary data the audit shortened. */
function refuseShortenedBinary(table: Table, values: Row): void {
  const shortened = Object.entries(values)
    .filter(
      ([name, value]) =>
        isShortenedBinary(value) &&
        table.columns.some((c) => c.name === name && (c.typeGroup === 'Binary' || c.typeGroup === 'image')),
    )
    .map(([name]) => name);
  if (shortened.length) throw new ApiError(409, undoMessages.binary(shortened));
}

const describeKey = (key: Row) =>
  Object.entries(key)
    .map(([name, value]) => `${name} ${String(value)}`)
    .join(', ');

/** The change an undo made, as its entry records it. */
interface UndoneChange {
  change: DataChange;
  key: Row;
  before: Row | null;
  after: Row | null;
  keptKey: boolean;
}

interface Outcome extends UndoneChange {
  message: string;
}

/** Hands the change over to be recorded, in its transaction before it commits (the engine's beforeCommit). */
type RecordUndo = (done: UndoneChange) => Promise<void>;

/** The values an update's undo writes back: the columns it changed that a write may set, as they were before. */
function valuesToWriteBack(table: Table, before: Row, after: Row): { columns: string[]; values: Row } {
  const writable = (name: string) =>
    table.columns.some(
      (c) => c.name === name && !c.isIdentity && !c.isGuid && !c.isComputed && !c.isHidden && !c.isForeignKey,
    );
  const columns = Object.keys(before).filter((name) => !same(before[name], after[name]) && writable(name));
  if (columns.length === 0) throw new ApiError(409, undoMessages.nothingChanged);
  const values = Object.fromEntries(columns.map((name) => [name, before[name] ?? null]));
  refuseShortenedBinary(table, values);
  return { columns, values };
}

/** Refuses (409) to delete an added row the undo could not tell from the others. */
function refuseWithoutKey(key: Row): void {
  if (Object.keys(key).length === 0 || Object.values(key).some((v) => v === null))
    throw new ApiError(409, undoMessages.noKey);
}

/** Writes back the values an update replaced, only the columns it changed, if the row is as the update left it. */
async function undoUpdate(
  engine: DatabaseEngine,
  table: Table,
  key: Row,
  before: Row,
  after: Row,
  record: RecordUndo,
): Promise<Outcome> {
  const { columns, values } = valuesToWriteBack(table, before, after);
  const change = await engine.upsert(
    table,
    { ...key, ...values },
    {
      beforeWrite: (kind, current) => {
        if (kind === 'insert' || !current) throw new ApiError(409, undoMessages.deletedSince);
        refuseIfChanged(table, current, after);
      },
      beforeCommit: (done) =>
        record({ change: 'update', key, before: done.before, after: done.after, keptKey: true }),
    },
  );
  return {
    change: 'update',
    key,
    before: change.before,
    after: change.after,
    keptKey: true,
    message: `Undone: ${columns.join(', ')} ${columns.length === 1 ? 'has its' : 'have their'} earlier value${columns.length === 1 ? '' : 's'} again.`,
  };
}

/** Deletes the row an insert added, if it is still as the insert left it. */
async function undoInsert(
  engine: DatabaseEngine,
  table: Table,
  key: Row,
  after: Row,
  record: RecordUndo,
): Promise<Outcome> {
  refuseWithoutKey(key);
  const deleted = await engine.deleteRow(table, key, {
    beforeDelete: (current) => refuseIfChanged(table, current, after),
    beforeCommit: (gone) => record({ change: 'delete', key, before: gone, after: null, keptKey: true }),
  });
  return {
    change: 'delete',
    key,
    before: deleted,
    after: null,
    keptKey: true,
    message: 'Undone: the added row is deleted again.',
  };
}

/** Inserts a deleted row again; with a new identity when the engine will not take the old one. */
async function restoreDeleted(
  engine: DatabaseEngine,
  table: Table,
  key: Row,
  before: Row,
  record: RecordUndo,
): Promise<Outcome> {
  refuseShortenedBinary(table, before);
  const restored = await engine.restoreRow(table, before, {
    beforeCommit: (back) =>
      record({
        change: 'insert',
        key: keyOf(table, back.row),
        before: null,
        after: back.row,
        keptKey: back.keptKey,
      }),
  });
  const newKey = keyOf(table, restored.row);
  return {
    change: 'insert',
    key: newKey,
    before: null,
    after: restored.row,
    keptKey: restored.keptKey,
    message: restored.keptKey
      ? 'Restored: the deleted row is back.'
      : `Restored with a new key: ${describeKey(newKey)} (it was ${describeKey(key)}). The database numbers ` +
        `${table.identityColumn ?? 'the key'} itself and would not take the old value back.`,
  };
}

/** The opposite change of an audited one. */
async function undoneBy(
  change: DataChange,
  engine: DatabaseEngine,
  table: Table,
  key: Row,
  before: Row | null,
  after: Row | null,
  record: RecordUndo,
): Promise<Outcome> {
  if (change === 'update' && before && after) return undoUpdate(engine, table, key, before, after, record);
  if (change === 'insert' && after) return undoInsert(engine, table, key, after, record);
  if (change === 'delete' && before) return restoreDeleted(engine, table, key, before, record);
  throw new ApiError(409, undoMessages.noRow);
}

/** Who may undo: an administrator, or the entry's author (their rights on the table are checked next). */
async function refuseOthers(context: AuditContext, caller: Caller, entry: StoredAuditEntry): Promise<void> {
  if (caller.account.isAdmin || entry.user_id === caller.account.userId) return;
  await writeAudit(context.store.db, {
    userId: caller.account.userId,
    action: 'access.denied',
    target: `audit:${entry.id}`,
    detail: { action: 'undo' },
    address: caller.address,
  });
  throw new ApiError(403, undoMessages.notYours);
}

/** What an entry must be to be undone, told from the entry alone: a data change (an undo is not undone in turn),
 * not still an intent, of a table. */
function undoTarget(entry: StoredAuditEntry): { change: DataChange; ref: TableRef } {
  const change = changeOf(entry.action);
  if (entry.action === 'data.bulk') throw new ApiError(409, undoMessages.bulkNeedsJob);
  if (!change) throw new ApiError(409, undoMessages.notDataChange);
  if (entry.state === 'pending') throw new ApiError(409, undoMessages.notConfirmed);
  const ref = tableOf(entry.target);
  if (!ref) throw new ApiError(409, undoMessages.noTable);
  return { change, ref };
}

/** The rows an audited change recorded and its row's key (a key the audit shortened cannot be looked up). */
function recordedRows(
  entry: StoredAuditEntry,
  table: Table,
): { before: Row | null; after: Row | null; key: Row } {
  const parsed = auditedChange.safeParse(parsedDetail(entry.detail));
  if (!parsed.success) throw new ApiError(409, undoMessages.noRow);
  const { before, after } = parsed.data;
  const key = parsed.data.key ?? keyOf(table, after ?? before ?? {});
  if (Object.values(key).some(isShortenedBinary))
    throw new ApiError(409, undoMessages.binary(Object.keys(key)));
  return { before, after, key };
}

/**
 * The checks an undo makes against the row as it is now (`current`, null when no row has the key), made ahead of
 * the write: the undo repeats them in its transaction (undoUpdate, undoInsert) or the engine does (restoreRow).
 */
function refuseStale(
  change: DataChange,
  table: Table,
  recorded: { before: Row | null; after: Row | null; key: Row },
  current: Row | null,
): void {
  const { before, after, key } = recorded;
  if (change === 'update' && before && after) {
    valuesToWriteBack(table, before, after);
    if (!current) throw new ApiError(409, undoMessages.deletedSince);
    refuseIfChanged(table, current, after);
  } else if (change === 'insert' && after) {
    refuseWithoutKey(key);
    if (!current) throw new ApiError(409, undoMessages.deletedSince);
    refuseIfChanged(table, current, after);
  } else if (change === 'delete' && before) {
    refuseShortenedBinary(table, before);
    if (current) throw new ApiError(409, undoMessages.keyTaken);
  } else {
    throw new ApiError(409, undoMessages.noRow);
  }
}

/** What a row's history knows when it lists an entry: the table, the caller's rights on it, the undo of the entry
 * if any, and the row as it is now (null when no row has the key). */
export interface UndoPreview {
  table: Table;
  rights: TableRights;
  undoneBy: number | null;
  current: Row | null;
}

const rightHeld: Record<DataChange, keyof TableRights> = {
  update: 'canUpdate',
  insert: 'canDelete',
  delete: 'canInsert',
};

/**
 * Whether the undo of an entry would be allowed now, by the same checks undoEntry makes (a done entry only: one
 * whose change could not be told to have happened is left to the audit trail). `current` is the row of the entry's
 * key: a row's history lists only entries of one key.
 */
export function canUndo(entry: StoredAuditEntry, preview: UndoPreview): boolean {
  if (entry.state !== 'done' || preview.undoneBy !== null) return false;
  try {
    const { change } = undoTarget(entry);
    if (!preview.rights[rightHeld[change]]) return false;
    const recorded = recordedRows(entry, preview.table);
    refuseStale(change, preview.table, recorded, preview.current);
    return true;
  } catch (error) {
    if (error instanceof ApiError) return false;
    throw error;
  }
}

/** Starts the undo of a bulk change's entry (data.bulk) as a job: the bulk feature's, handed in by the app (a
 * feature does not import another that imports it). */
export type BulkUndoStarter = (
  caller: Caller,
  entry: StoredAuditEntry,
) => Promise<{ result: UndoResult; message: string }>;

/** POST api/admin/audit/{id}/undo: undoes one data change; answers what was done and a message saying it. A bulk
 * change's undo is a job (`bulkUndo`): its answer carries the job's id. */
export async function undoChange(
  context: AuditContext & { bulkUndo?: BulkUndoStarter | undefined },
  caller: Caller,
  id: number,
): Promise<{ result: UndoResult; message: string }> {
  const entry = await findAudit(context.store.db, id);
  if (!entry) throw new ApiError(404, undoMessages.notFound);
  await refuseOthers(context, caller, entry);
  if (entry.action === 'data.bulk' && context.bulkUndo) return context.bulkUndo(caller, entry);
  return undoEntry(context, caller, entry);
}

/**
 * POST api/sql/{db}/{schema}/{table}/history/{id}/undo: undoes one data change of that table (the caller's links
 * were checked by the data API); an entry of another table is not found here. A bulk change's entry starts the same
 * undo job as the audit trail's call (`bulkUndo`), under the rule of this call: anyone holding the right the undo
 * needs on the table.
 */
export async function undoChangeOfTable(
  context: AuditContext & { bulkUndo?: BulkUndoStarter | undefined },
  caller: Caller,
  ref: TableRef,
  id: number,
): Promise<{ result: UndoResult; message: string }> {
  const entry = await findAudit(context.store.db, id);
  if (!entry || entry.target !== tablePath(ref.database, ref.schema, ref.table))
    throw new ApiError(404, undoMessages.notFound);
  if (entry.action === 'data.bulk' && context.bulkUndo) return context.bulkUndo(caller, entry);
  return undoEntry(context, caller, entry);
}

/** Undoes an entry once whoever may ask has been decided: the right the opposite change needs, then the change. */
async function undoEntry(
  context: AuditContext,
  caller: Caller,
  entry: StoredAuditEntry,
): Promise<{ result: UndoResult; message: string }> {
  const { store } = context;
  const id = entry.id;
  const { change, ref } = undoTarget(entry);
  // The caller's rights now, not when the change was made: a right taken away cannot be used through undo.
  await requireTableAccess(store, caller.account, ref, neededRight[change], caller.address);
  const done = await findUndoOf(store.db, id);
  if (done) throw new ApiError(409, undoMessages.alreadyUndone(done.id));

  const engine = databaseNamed(context, ref.database);
  const table = await engine.table(ref.schema, ref.table);
  const { before, after, key } = recordedRows(entry, table);

  const claim = await claimUndo(store.db, {
    userId: caller.account.userId,
    target: entry.target,
    of: id,
    address: caller.address,
    at: new Date().toISOString(),
  });
  if (claim === null) {
    const winner = await findUndoOf(store.db, id);
    throw new ApiError(409, undoMessages.alreadyUndone(winner?.id ?? id));
  }
  /** The undo's entry: its claim, completed with the change it made. */
  const undoEntry = (done: UndoneChange): AuditEntry => ({
    userId: caller.account.userId,
    action: 'data.undo',
    target: entry.target,
    address: caller.address,
    undoOf: id,
    detail: {
      of: id,
      change: done.change,
      key: auditedRow(table, done.key),
      before: auditedRow(table, done.before),
      after: auditedRow(table, done.after),
      ...(done.keptKey ? {} : { keptKey: false, oldKey: key }),
    },
  });
  let outcome: Outcome;
  try {
    // The claim is the intent: completed with the change before it commits, confirmed after. When the undo changed
    // nothing (refused or failed), resolving the claim drops it, so the undo can be tried again.
    outcome = await auditedWrite(
      context,
      (record) => undoneBy(change, engine, table, key, before, after, (done) => record(undoEntry(done))),
      { intentId: claim },
    );
  } catch (error) {
    // The engine's "no longer exists" is about the row the undo would change: deleted after the audited change.
    if (error instanceof EngineError && error.statusCode === 404)
      throw new ApiError(409, undoMessages.deletedSince);
    throw error;
  }
  return {
    message: outcome.message,
    result: {
      undoEntryId: claim,
      change: outcome.change,
      key: outcome.key,
      // With its version, as every row the data API answers: the editor saves from it (decision 0045).
      row: outcome.after && withRowVersion(table, { ...outcome.after }),
      keptKey: outcome.keptKey,
    },
  };
}
