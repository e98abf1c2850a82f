import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { bulkMessages } from '#common/contract/bulk.ts';
import { tableOfId } from '#common/links.ts';
import type { Row, Table } from '#common/contract/sql.ts';
import { requireTableAccess, type TableRef } from '#server/access/policy.ts';
import { databaseNamed, type Caller } from '#server/access/table-access.ts';
import type { RevertRow } from '#server/engines/bulk-writes.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import { EngineError } from '#server/engines/engine-error.ts';
import type { JobRunner } from '#server/jobs/job-runner.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import type { AppStore } from '#server/store/app-store.ts';
import {
  claimUndo,
  confirmAudit,
  findUndoOf,
  setAuditDetail,
  type StoredAuditEntry,
} from '#server/store/audit.ts';
import { bulkBatchesOf, insertBulkJob } from '#server/store/bulk-jobs.ts';
import type { DatabaseRegistry } from '#server/engines/database-registry.ts';
import { changedColumns, isShortenedBinary, wholeAfter } from '#server/features/audit/row-audit.ts';
import { undoMessages, type BulkUndoStarter } from '#server/features/audit/undo-service.ts';
import type { BulkPayload } from './bulk-job.ts';

/*
 * The undo of a bulk change (issue 38, decision 0068), through the audit trail's undo call. Everything is checked
 * before the job starts: who may undo (the undo call: an administrator or the author), the right the opposite change
 * needs now (CanUpdate to write an update back, CanInsert to put deleted rows back), the entry not undone already and
 * not running, and every row as the bulk change left it: rows changed since are listed and nothing is undone. The
 * job then walks the entry's batches, each its own transaction that checks its rows again under their lock
 * (DatabaseEngine.revertBatch). The undo is one `data.undo` entry (undo_of the bulk entry), with its own batches.
 */

/** Rows listed when refusing. */
const LISTED = 5;

/** One audited row of a batch record. */
export const batchRows = z.array(
  z.object({ key: z.record(z.string(), z.any()), before: z.any().nullable(), after: z.any().nullable() }),
);

export const undoRequest = z.object({
  undoOf: z.number().int(),
  undoEntryId: z.number().int(),
  /** import: an import's entry (decision 0070), whose rows were inserted or updated. */
  change: z.enum(['update', 'delete', 'import']),
});
export type UndoRequest = z.infer<typeof undoRequest>;

const isRecord = (value: unknown): value is Row =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The rows of a batch record. Checked by hand rather than by `batchRows`: the records are the job's own writing, a
 * thousand rows each, and a zod parse of every value cost more than the rest of reading them (bench:bulk). */
export function revertRows(text: string): RevertRow[] {
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed)) throw new Error('A bulk batch record is not a list of rows.');
  return parsed.map((row: unknown) => {
    if (!isRecord(row) || !isRecord(row.key))
      throw new Error('A bulk batch record holds a row without its key.');
    const before = isRecord(row.before) ? row.before : null;
    // An update's record may keep only the columns it changed in after (decision 0068, "Speed").
    return { key: row.key, before, after: wholeAfter(before, isRecord(row.after) ? row.after : null) };
  });
}

/** The keys of the rows that are no longer as the bulk change left them (`current` in the order of `rows`). */
export function changedSince(
  table: Table,
  change: 'update' | 'delete',
  rows: RevertRow[],
  current: (Row | null)[],
): Row[] {
  return rows.flatMap((row, i) => {
    const now = current[i] ?? null;
    const changed =
      change === 'delete'
        ? now !== null
        : now === null || changedColumns(table, now, row.after ?? {}).length > 0;
    return changed ? [row.key] : [];
  });
}

const listed = (keys: Row[]) => keys.slice(0, LISTED).map((key) => JSON.stringify(key));

/** Every batch of the entry checked against the rows as they are now (a batch at a time: memory stays flat). */
async function refuseChanged(
  store: AppStore,
  engine: DatabaseEngine,
  table: Table,
  entryId: number,
  change: 'update' | 'delete',
): Promise<number> {
  const changed: Row[] = [];
  let rows = 0;
  let afterBatch = -1;
  for (;;) {
    const batches = await bulkBatchesOf(store.db, entryId, afterBatch);
    if (batches.length === 0) break;
    for (const batch of batches) {
      afterBatch = batch.batch;
      if (batch.state !== 'done') continue;
      const revert = revertRows(batch.rows);
      const binary = new Set<string>();
      for (const row of revert)
        for (const [name, value] of Object.entries(row.before ?? {}))
          if (isShortenedBinary(value)) binary.add(name);
      if (binary.size) throw new ApiError(409, bulkMessages.undoBinary([...binary]));
      const keys = revert.map((row) => row.key);
      const found = await engine.readBulk(table, { selection: { keys }, after: null, limit: keys.length });
      const names = Object.keys(keys[0] ?? {});
      const text = (row: Row) => JSON.stringify(names.map((name) => row[name] ?? null));
      const current = new Map(found.map((row) => [text(row), row]));
      changed.push(
        ...changedSince(
          table,
          change,
          revert,
          keys.map((key) => current.get(text(key)) ?? null),
        ),
      );
      rows += revert.length;
    }
  }
  if (changed.length) throw new ApiError(409, bulkMessages.undoChangedSince(listed(changed)));
  return rows;
}

/** The starter the undo call uses for a data.bulk entry. */
export function bulkUndoStarter(deps: {
  store: AppStore;
  databases: DatabaseRegistry;
  runner: JobRunner<BulkPayload>;
}): BulkUndoStarter {
  const { store } = deps;
  return async (caller: Caller, entry: StoredAuditEntry) => {
    const ref: TableRef | null = entry.target?.startsWith('/db/') ? tableOfId(entry.target.slice(4)) : null;
    if (!ref) throw new ApiError(409, undoMessages.noTable);
    const detail = z
      .looseObject({
        change: z.enum(['update', 'delete', 'import']),
        status: z.string(),
        mode: z.string().optional(),
      })
      .safeParse(JSON.parse(entry.detail ?? '{}'));
    if (!detail.success) throw new ApiError(409, undoMessages.noRow);
    const { change } = detail.data;
    if (detail.data.status === 'running') throw new ApiError(409, bulkMessages.undoRunning);
    // An import's undo (decision 0070) deletes the rows it inserted and, after an upsert, writes back those it updated.
    const rights: ('update' | 'insert' | 'delete')[] =
      change === 'import'
        ? ['delete', ...(detail.data.mode === 'upsert' ? (['update'] as const) : [])]
        : [change === 'update' ? 'update' : 'insert'];
    for (const right of rights) await requireTableAccess(store, caller.account, ref, right, caller.address);
    const done = await findUndoOf(store.db, entry.id);
    if (done) throw new ApiError(409, undoMessages.alreadyUndone(done.id));
    const engine = databaseNamed(deps, ref.database);
    const table = await engine.table(ref.schema, ref.table);
    const rows = await refuseChanged(store, engine, table, entry.id, change === 'import' ? 'update' : change);

    const claim = await claimUndo(store.db, {
      userId: caller.account.userId,
      target: entry.target,
      of: entry.id,
      address: caller.address,
      at: new Date().toISOString(),
    });
    if (claim === null) {
      const winner = await findUndoOf(store.db, entry.id);
      throw new ApiError(409, undoMessages.alreadyUndone(winner?.id ?? entry.id));
    }
    const id = randomUUID();
    // The claim is confirmed at once: its rows are recorded per batch before each commits, like a bulk change's.
    await setAuditDetail(store.db, claim, {
      of: entry.id,
      change: 'bulk',
      job: id,
      rows: 0,
      status: 'queued',
    });
    await confirmAudit(store.db, claim);
    const request: UndoRequest = { undoOf: entry.id, undoEntryId: claim, change };
    await insertBulkJob(
      store.db,
      {
        id,
        userId: caller.account.userId,
        database: ref.database,
        schema: ref.schema,
        table: ref.table,
        action: 'undo',
        request: JSON.stringify(request),
        rowsTotal: rows,
        rowsTotalCapped: false,
      },
      new Date().toISOString(),
    );
    await deps.runner.enqueue(id, { jobId: id });
    return {
      message: bulkMessages.undoStarted,
      result: {
        undoEntryId: claim,
        change: change === 'update' ? 'update' : change === 'import' ? 'delete' : 'insert',
        key: {},
        row: null,
        keptKey: true,
        jobId: id,
      },
    };
  };
}

/** The refusal of a batch whose rows changed between the check and the job. */
export const changedDuringUndo = (keys: Row[]) =>
  new EngineError(409, bulkMessages.undoChangedSince(listed(keys)));
