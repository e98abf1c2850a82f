import { z } from 'zod';
import { bulkMessages } from '#common/contract/bulk.ts';
import { filterDocument } from '#common/contract/filter.ts';
import { cellValue, row as rowSchema, type Row, type Table } from '#common/contract/sql.ts';
import { tablePath } from '#common/links.ts';
import type { FastifyBaseLogger } from 'fastify';
import type {
  BulkRowChange,
  BulkSelection,
  RevertChange,
  RevertOptions,
} from '#server/engines/bulk-writes.ts';
import type { DatabaseRegistry } from '#server/engines/database-registry.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import { EngineError } from '#server/engines/engine-error.ts';
import { mayAccessTable, type TableAction } from '#server/access/policy.ts';
import type { JobDefinition } from '#server/jobs/job-runner.ts';
import { stopReasonOf } from '#server/jobs/job-runner.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { linksOfUser, userIsAdmin } from '#server/store/roles.ts';
import { findUserById } from '#server/store/users.ts';
import { findAudit, setAuditDetail, writeAudit } from '#server/store/audit.ts';
import {
  bulkBatchesOf,
  endBulkJob,
  findBulkJob,
  markBulkRunning,
  recordBulkProgress,
  setBulkRowsDone,
  settleBulkBatch,
  writeBulkBatch,
  type BulkJobRow,
} from '#server/store/bulk-jobs.ts';
import { changedDuringUndo, changedSince, revertRows, undoRequest } from './bulk-undo.ts';
import { AUDIT_UNWRITABLE } from '#server/features/audit/audit-intents.ts';
import { auditedRow, changedColumns, keyOf, sameValue } from '#server/features/audit/row-audit.ts';

/*
 * The job of a bulk change (issue 38, docs/decisions/0068-bulk-changes.md). It walks the selection in key order a
 * batch at a time, each batch one short transaction of the engine (bulk-writes.ts). The whole job is one audit entry
 * (`data.bulk`: who, when, table, filter, keys, set, count), written when the job starts; each batch's rows (key,
 * before, after) go to audit_bulk_batches in the batch's transaction before it commits (the intent rule, decision
 * 0022) and are set done once it committed. A cancel (the job's row set 'cancelled', seen after each batch, or the
 * runner's signal) stops it between batches. A database error stops it too: the batch is tried again a row at a time
 * up to the failing row, so the rows before it are kept (and audited) and the status names the row and the reason.
 */

/** Rows a batch takes: small enough that no batch holds its locks for long, InnoDB included. */
export const BULK_BATCH_SIZE = 1000;

export const bulkPayload = z.object({ jobId: z.string() });
export type BulkPayload = z.infer<typeof bulkPayload>;

/** What a job was asked to do, as its row keeps it. */
export const bulkRequest = z.object({
  action: z.enum(['update', 'delete']),
  where: filterDocument.optional(),
  keys: z.array(rowSchema).optional(),
  set: z.record(z.string(), cellValue).nullable(),
  count: z.number().int(),
  capped: z.boolean(),
  /** Where the request came from, for the audit entry (absent in jobs queued before it was kept). */
  address: z.string().nullable().optional(),
});
export type BulkRequest = z.infer<typeof bulkRequest>;

export interface BulkJobDeps {
  store: AppStore;
  databases: DatabaseRegistry;
  log: FastifyBaseLogger;
  /** Rows a batch takes (tests: a few). */
  batchSize?: number;
  /** Tests: awaited before each batch (its number, from 0), to hold a job at a known point. */
  beforeBatch?: (batch: number) => Promise<void>;
  /** Whether batch N+1's statement runs while batch N is recorded and commits (PostgreSQL and MariaDB/MySQL only,
   * without beforeBatch; default off: decision 0068, "Speed"). */
  pipeline?: boolean;
}

const now = () => new Date().toISOString();

/** A row's key as the status and messages show it: `{"id":5}`. */
const shownKey = (table: Table, row: Row) => JSON.stringify(keyOf(table, row));

/** The rows of a batch as the audit keeps them: an updated row's `after` holds only the columns that changed (the
 * whole row is `wholeAfter`), a third less to write a batch (decision 0068, "Speed"). */
function auditedRows(table: Table, changes: BulkRowChange[]): string {
  return JSON.stringify(
    changes.map((change) => {
      const before = auditedRow(table, change.before);
      const after = auditedRow(table, change.after);
      const changed: Row | null = after && {};
      if (after && changed)
        for (const [name, value] of Object.entries(after))
          if (!before || !sameValue(before[name], value)) changed[name] = value;
      return { key: auditedRow(table, keyOf(table, change.before)), before, after: changed };
    }),
  );
}

/** Whole rows as the audit keeps them (an undo's and an import's records): key, before and after. */
export function auditedBatch(
  table: Table,
  rows: { key: Row; before: Row | null; after: Row | null }[],
): string {
  return JSON.stringify(
    rows.map((row) => ({
      key: auditedRow(table, row.key),
      before: auditedRow(table, row.before),
      after: auditedRow(table, row.after),
    })),
  );
}

/**
 * Writes a batch's audited rows before its transaction commits (the intent rule, decision 0022). A store that cannot
 * take them refuses the commit, and the batch rolls back: said as what it is (503), since the engine would read a
 * store error as its own database's.
 */
export async function recordBatch(
  store: AppStore,
  log: FastifyBaseLogger,
  record: { auditId: number; batch: number; rowCount: number; rows: string },
  context: Record<string, unknown>,
  what: string,
): Promise<void> {
  try {
    await writeBulkBatch(store.db, record);
  } catch (error) {
    log.error({ err: error, ...context }, `${what} not audited: it is not made`);
    throw new EngineError(503, AUDIT_UNWRITABLE, { cause: error });
  }
}

/** The right each batch needs, in the words of its refusal. */
const RIGHT_WORDS: Record<Exclude<TableAction, 'read'>, string> = {
  update: 'change rows of',
  delete: 'delete rows of',
  insert: 'add rows to',
};

/**
 * Why the job's owner may no longer go on, or null: checked before each batch with the policy the calls use (the
 * table's links and CanUpdate/CanDelete, or for an undo the right the opposite change needs), read afresh from the
 * app store (an administrator's change of roles or a lock lands within one batch), and the account still there and
 * not locked.
 */
export async function rightLost(
  store: AppStore,
  job: Pick<BulkJobRow, 'user_id' | 'database_name' | 'schema_name' | 'table_name'>,
  action: Exclude<TableAction, 'read'>,
  now: Date,
): Promise<string | null> {
  const user = await findUserById(store.db, job.user_id);
  if (!user || (user.locked_until !== null && user.locked_until > now.toISOString()))
    return bulkMessages.accountLost;
  const account = {
    userId: job.user_id,
    isAdmin: await userIsAdmin(store.db, job.user_id),
    links: await linksOfUser(store.db, job.user_id),
  };
  const ref = { database: job.database_name, schema: job.schema_name, table: job.table_name };
  return (await mayAccessTable(store, account, ref, action))
    ? null
    : bulkMessages.rightLost(RIGHT_WORDS[action]);
}

/** Whether a batch whose record was written committed, told by its first row (as the intent resolver decides for one
 * row, decision 0022): the row is as the batch left it (absent, for a delete). A batch commits whole or not at all. */
export async function batchHappened(
  engine: DatabaseEngine,
  table: Table,
  first: { key: Row; after: Row | null },
): Promise<boolean> {
  const current = await engine.readRow(table, first.key);
  if (first.after === null) return current === null;
  return current !== null && changedColumns(table, current, first.after).length === 0;
}

/**
 * Settles an entry's batches still 'pending' (written before a commit whose outcome a killed process never saw) by
 * their first row, and answers how many rows its done batches hold. A batch whose database cannot be read now stays
 * pending (its rows stay in the trail). Shared by bulk changes and imports (decision 0070).
 */
export async function settlePendingBatches(
  store: AppStore,
  engine: DatabaseEngine | undefined,
  table: Table | null | undefined,
  auditId: number,
): Promise<number> {
  let rows = 0;
  let afterBatch = -1;
  for (;;) {
    const batches = await bulkBatchesOf(store.db, auditId, afterBatch);
    if (batches.length === 0) break;
    for (const batch of batches) {
      afterBatch = batch.batch;
      let done = batch.state === 'done';
      const first = batch.state === 'pending' ? revertRows(batch.rows)[0] : undefined;
      if (first && engine && table) {
        const happened = await batchHappened(engine, table, first).catch(() => null);
        if (happened !== null) await settleBulkBatch(store.db, auditId, batch.batch, happened);
        done = happened === true;
      }
      if (done) rows += batch.row_count;
    }
  }
  return rows;
}

/** The entry of a job a restart ended: the rows it changed, failed, and why. */
export async function failInterruptedEntry(
  store: AppStore,
  auditId: number,
  rows: number,
  error: string,
): Promise<void> {
  const entry = await findAudit(store.db, auditId);
  const detail = entry?.detail ? (JSON.parse(entry.detail) as Record<string, unknown>) : {};
  await setAuditDetail(store.db, auditId, { ...detail, rows, status: 'failed', error });
}

/**
 * After a restart failed the jobs that had not ended: each one's pending batches are settled (settlePendingBatches),
 * and its entry and row say how many rows it changed.
 */
export async function recoverBulkJobs(
  deps: Pick<BulkJobDeps, 'store' | 'databases'>,
  jobIds: string[],
): Promise<void> {
  const { store } = deps;
  for (const id of jobIds) {
    const job = await findBulkJob(store.db, id);
    const auditId = job?.audit_id ?? null;
    if (!job || auditId === null) continue;
    const engine = deps.databases.get(job.database_name);
    const table = await engine?.table(job.schema_name, job.table_name).catch(() => null);
    const rows = await settlePendingBatches(store, engine, table, auditId);
    await setBulkRowsDone(store.db, id, rows);
    await failInterruptedEntry(store, auditId, rows, bulkMessages.restarted);
  }
}

/** A batch under way: its outcome, the record its beforeCommit wrote, and the batch it started behind it. */
interface Attempt {
  limit: number;
  result: Promise<BulkRowChange[]>;
  /** Resolved once the batch's first statement is sent (or the batch ended without one). */
  sent: Promise<void>;
  recorded: BulkRowChange[] | null;
  /** The next batch, started from this one's beforeCommit (pipelined), waiting for `open`. */
  next: Attempt | null;
  /** Why no next batch was started (a cancel, a right lost), seen before it would have started. */
  stopped: { status: 'done' | 'failed' | 'cancelled'; error: string | null } | null;
  /** Lets the next batch record itself and commit (true), or rolls it back (false). */
  open: (go: boolean) => void;
}

/** Thrown in a pipelined batch whose predecessor did not commit or ended the job: it rolls back unrecorded. */
class BatchDropped extends Error {}

export function bulkJob(deps: BulkJobDeps): JobDefinition<BulkPayload> {
  const { store } = deps;
  const batchSize = deps.batchSize ?? BULK_BATCH_SIZE;
  /** Whether to pipeline (decision 0068, "Speed"): off unless asked, since through the API on the shared 2-core
   * machine it was no faster and took page reads of other rows further from their idle p99; never on SQLite, whose one
   * connection would only queue the two batches, nor with a test's beforeBatch hold. */
  const pipelines = (engine: DatabaseEngine) =>
    deps.pipeline === true &&
    deps.beforeBatch === undefined &&
    (engine.kind === 'postgres' || engine.kind === 'mysql');

  /** After a batch failed once its rows were recorded: the commit's answer may have been lost, so its first row
   * tells whether it happened (batchHappened). */
  async function settleAfterFailure(
    engine: DatabaseEngine,
    table: Table,
    auditId: number,
    batch: number,
    made: BulkRowChange[],
  ): Promise<boolean> {
    const first = made[0];
    if (!first) return false;
    const happened = await batchHappened(engine, table, {
      key: keyOf(table, first.before),
      after: auditedRow(table, first.after),
    });
    await settleBulkBatch(store.db, auditId, batch, happened);
    return happened;
  }

  async function run(job: BulkJobRow, signal: AbortSignal): Promise<void> {
    const request = bulkRequest.parse(JSON.parse(job.request));
    const engine = deps.databases.get(job.database_name);
    if (!engine) {
      await endBulkJob(
        store.db,
        job.id,
        { status: 'failed', error: `The database ${job.database_name} is gone.` },
        now(),
      );
      return;
    }
    const table = await engine.table(job.schema_name, job.table_name);
    const pipelining = pipelines(engine);
    const selection: BulkSelection = { where: request.where, keys: request.keys };
    const detail = {
      change: request.action,
      where: request.where ?? null,
      keys: request.keys ?? null,
      set: request.set,
      count: request.count,
      capped: request.capped,
      job: job.id,
    };
    const auditId = await writeAudit(store.db, {
      userId: job.user_id,
      action: 'data.bulk',
      target: tablePath(job.database_name, job.schema_name, job.table_name),
      detail: { ...detail, rows: 0, status: 'running' },
      address: request.address ?? null,
    });
    if (!(await markBulkRunning(store.db, job.id, auditId, now()))) {
      await setAuditDetail(store.db, auditId, { ...detail, rows: 0, status: 'cancelled' });
      return;
    }

    type Outcome = { status: 'done' | 'failed' | 'cancelled'; error: string | null };
    /** Why the job may not start its next batch (a cancel, a right lost), or null; `number` is that batch's. */
    const mayGoOn = async (number: number): Promise<Outcome | null> => {
      if (stopReasonOf(signal)) return { status: 'cancelled', error: bulkMessages.cancelled };
      await deps.beforeBatch?.(number);
      const lost = await rightLost(store, job, request.action, new Date());
      return lost ? { status: 'failed', error: lost } : null;
    };
    const set = request.action === 'delete' ? null : request.set;
    /**
     * Starts a batch: its statement is sent now; its record is written (and it commits) only once `gate` says the
     * batch before it committed, was recorded done and the job goes on (false: it rolls back unrecorded). A full batch
     * of a pipelining engine starts the next one from its beforeCommit, before writing its own record, so the
     * database works on batch N+1 while the app store writes batch N's record and batch N commits (decision 0068,
     * "Speed"). Each batch is still its own transaction, recorded before it commits.
     */
    const start = (number: number, from: Row | null, limit: number, gate: Promise<boolean>): Attempt => {
      const attempt: Attempt = {
        limit,
        recorded: null,
        next: null,
        stopped: null,
        open: () => undefined,
        result: Promise.resolve([]),
        sent: Promise.resolve(),
      };
      const nextGate = new Promise<boolean>((resolve) => (attempt.open = resolve));
      let sent = (): void => undefined;
      attempt.sent = new Promise<void>((resolve) => (sent = resolve));
      attempt.result = engine.bulkBatch(
        table,
        { selection, after: from, limit, set },
        {
          onStatement: () => sent(),
          beforeCommit: async (made) => {
            // First the batch before this one committed and recorded done (else this one rolls back, starting
            // nothing), then the next batch started, then this one's record: the next batch's statement runs while
            // this record is written and this batch commits.
            if (!(await gate)) throw new BatchDropped();
            const last = made.at(-1);
            if (pipelining && limit > 1 && made.length === limit && last) {
              attempt.stopped = await mayGoOn(number + 1);
              if (!attempt.stopped) {
                const next = start(number + 1, keyOf(table, last.before), limit, nextGate);
                attempt.next = next;
                // Until its statement is on its way (its transaction begun): the record below is written
                // synchronously and would hold it back. Then one turn of the event loop for the driver to send it.
                await next.sent;
                await new Promise((resolve) => setImmediate(resolve));
              }
            }
            if (made.length === 0) return;
            await recordBatch(
              store,
              deps.log,
              { auditId, batch: number, rowCount: made.length, rows: auditedRows(table, made) },
              { job: job.id },
              'bulk batch',
            );
            attempt.recorded = made;
          },
        },
      );
      // Awaited by the loop, or dropped; never an unhandled rejection meanwhile. A batch that fails before its
      // statement counts as sent (nothing to wait for).
      attempt.result.catch(() => undefined).finally(sent);
      return attempt;
    };
    /** The batch started behind `attempt`, if any, rolled back unrecorded (and waited for). */
    const dropNext = async (attempt: Attempt) => {
      attempt.open(false);
      await attempt.next?.result.catch(() => undefined);
    };

    let after: Row | null = null;
    let done = 0;
    let batch = 0;
    /** Rows still to be tried one at a time after a batch failed. */
    let singly = 0;
    let outcome: Outcome = { status: 'done', error: null };
    const first = await mayGoOn(0);
    let current: Attempt | null = first ? null : start(0, null, batchSize, Promise.resolve(true));
    if (first) outcome = first;
    /** The batch in hand: whatever ends the loop (an app-store error too), the batch started behind it is dropped. */
    let handling: Attempt | null = null;
    try {
      while (current) {
        const attempt: Attempt = current;
        handling = attempt;
        current = null;
        const { limit } = attempt;
        const number = batch;
        let changes: BulkRowChange[];
        try {
          changes = await attempt.result;
        } catch (error) {
          await dropNext(attempt);
          const made = attempt.recorded;
          const committed =
            made !== null &&
            (await settleAfterFailure(engine, table, auditId, number, made).catch(() => false));
          if (!committed && limit > 1) {
            // Which row? The batch again a row at a time, so the rows before the failing one are kept.
            singly = limit;
            const stop = await mayGoOn(number);
            if (stop) outcome = stop;
            else current = start(number, after, 1, Promise.resolve(true));
            continue;
          }
          if (!committed || made === null) {
            const failing = await engine.readBulk(table, { selection, after, limit: 1 }).catch(() => []);
            const where = failing[0] ? ` at the row ${shownKey(table, failing[0])}` : '';
            outcome = { status: 'failed', error: `The change stopped${where}: ${describeFailure(error)}` };
            break;
          }
          // It committed after all (only its answer was lost): carried on as a success (the batch behind it, dropped,
          // is started again below).
          changes = made;
          attempt.next = null;
          attempt.stopped = null;
        }
        const settle = changes.length > 0 && attempt.recorded !== null;
        batch += 1;
        done += changes.length;
        if (singly > 0) singly -= 1;
        const last = changes.at(-1);
        if (last) after = keyOf(table, last.before);
        // The batch's record done and the job's progress in one write of the app store (one sync of its disk, not two).
        const running = await store.db.transaction().execute(async (trx) => {
          if (settle) await settleBulkBatch(trx, auditId, number, true);
          return recordBulkProgress(trx, job.id, done, now());
        });
        if (!running) {
          await dropNext(attempt);
          outcome = { status: 'cancelled', error: bulkMessages.cancelled };
          break;
        }
        if (attempt.stopped) {
          await dropNext(attempt);
          outcome = attempt.stopped;
          break;
        }
        if (changes.length < limit) {
          await dropNext(attempt);
          break;
        }
        if (attempt.next) {
          // Started behind this one (pipelined): it may now record itself and commit.
          attempt.open(true);
          current = attempt.next;
          continue;
        }
        const stop = await mayGoOn(batch);
        if (stop) {
          outcome = stop;
          break;
        }
        current = start(batch, after, singly > 0 ? 1 : batchSize, Promise.resolve(true));
      }
    } finally {
      if (handling) await dropNext(handling);
    }
    await setBulkRowsDone(store.db, job.id, done);
    await endBulkJob(store.db, job.id, { ...outcome, rowsDone: done }, now());
    await setAuditDetail(store.db, auditId, {
      ...detail,
      rows: done,
      status: outcome.status,
      error: outcome.error,
    });
  }

  /** The undo of a bulk change (bulk-undo.ts): the entry's done batches in order, each put back in one transaction
   * that checks its rows again under their lock; recorded as the undo entry's own batches. */
  async function runUndo(job: BulkJobRow, signal: AbortSignal): Promise<void> {
    const request = undoRequest.parse(JSON.parse(job.request));
    const engine = deps.databases.get(job.database_name);
    if (!engine) throw new EngineError(404, `The database ${job.database_name} is gone.`);
    const table = await engine.table(job.schema_name, job.table_name);
    const auditId = request.undoEntryId;
    const detail = { of: request.undoOf, change: 'bulk', job: job.id };
    if (!(await markBulkRunning(store.db, job.id, auditId, now()))) return;
    await setAuditDetail(store.db, auditId, { ...detail, rows: 0, status: 'running' });
    let done = 0;
    let number = 0;
    let afterBatch = -1;
    let outcome: { status: 'done' | 'failed' | 'cancelled'; error: string | null } = {
      status: 'done',
      error: null,
    };
    for (;;) {
      const [next] = await bulkBatchesOf(store.db, request.undoOf, afterBatch, 1);
      if (!next) break;
      afterBatch = next.batch;
      if (next.state !== 'done') continue;
      if (stopReasonOf(signal)) {
        outcome = { status: 'cancelled', error: bulkMessages.cancelled };
        break;
      }
      await deps.beforeBatch?.(number);
      const rows = revertRows(next.rows);
      // An import's undo (decision 0070) deletes the rows it inserted and writes back those it updated.
      const lost =
        request.change === 'import'
          ? ((await rightLost(store, job, 'delete', new Date())) ??
            (rows.some((row) => row.before !== null)
              ? await rightLost(store, job, 'update', new Date())
              : null))
          : await rightLost(store, job, request.change === 'update' ? 'update' : 'insert', new Date());
      if (lost) {
        outcome = { status: 'failed', error: lost };
        break;
      }
      // Set from the engine's callback (an object: the compiler does not follow assignments made inside it).
      const held: { made: RevertChange[] | null } = { made: null };
      let settled = false;
      const batch = number;
      try {
        const change = request.change;
        const revert = (options: RevertOptions) =>
          change === 'import'
            ? engine.revertImportBatch(table, rows, options)
            : engine.revertBatch(table, { change, rows }, options);
        const changes = await revert({
          check: (current) => {
            const changed = changedSince(table, change === 'import' ? 'update' : change, rows, current);
            if (changed.length) throw changedDuringUndo(changed);
          },
          beforeCommit: async (made) => {
            const rowsMade = made.map((change, i) => ({ ...change, key: rows[i]?.key ?? {} }));
            await recordBatch(
              store,
              deps.log,
              { auditId, batch, rowCount: made.length, rows: auditedBatch(table, rowsMade) },
              { job: job.id },
              'bulk undo batch',
            );
            held.made = made;
          },
        });
        settled = true;
        done += changes.length;
      } catch (error) {
        const made = held.made;
        const first = made?.[0];
        const committed =
          first !== undefined &&
          (await batchHappened(engine, table, {
            key: rows[0]?.key ?? {},
            after: auditedRow(table, first.after),
          }).catch(() => false));
        await settleBulkBatch(store.db, auditId, batch, committed).catch(() => undefined);
        if (!committed) {
          outcome = { status: 'failed', error: `The undo stopped: ${describeFailure(error)}` };
          break;
        }
        done += made?.length ?? 0;
      }
      number += 1;
      // The batch's record done and the job's progress in one write of the app store (one sync of its disk, not two).
      const running = await store.db.transaction().execute(async (trx) => {
        if (settled) await settleBulkBatch(trx, auditId, batch, true);
        return recordBulkProgress(trx, job.id, done, now());
      });
      if (!running) {
        outcome = { status: 'cancelled', error: bulkMessages.cancelled };
        break;
      }
    }
    await setBulkRowsDone(store.db, job.id, done);
    await endBulkJob(store.db, job.id, { ...outcome, rowsDone: done }, now());
    await setAuditDetail(store.db, auditId, {
      ...detail,
      rows: done,
      status: outcome.status,
      error: outcome.error,
    });
  }

  return {
    name: 'bulk change',
    payload: bulkPayload,
    async handle(payload, context) {
      const job = await findBulkJob(store.db, payload.jobId);
      if (!job || job.status !== 'queued') return;
      try {
        if (job.action === 'undo') await runUndo(job, context.signal);
        else await run(job, context.signal);
      } catch (error) {
        deps.log.error({ err: error, job: job.id }, 'bulk change failed');
        await endBulkJob(store.db, job.id, { status: 'failed', error: describeFailure(error) }, now()).catch(
          () => undefined,
        );
      }
    },
  };
}

/** A failure as a sentence a person can act on: the engine's message, else a plain one (no stack, no SQL). */
function describeFailure(error: unknown): string {
  if (error instanceof EngineError) return error.message;
  return 'the database refused the change.';
}
