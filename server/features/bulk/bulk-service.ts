import { randomUUID } from 'node:crypto';
import {
  BULK_COUNT_CAP,
  BULK_REFERENCES_COUNT_CAP,
  BULK_SAMPLE_SIZE,
  bulkMessages,
  type BulkPreview,
  type BulkPreviewBody,
  type BulkReference,
  type BulkRunBody,
  type BulkStatus,
} from '#common/contract/bulk.ts';
import { keepsEveryRow } from '#common/contract/filter.ts';
import type { Row, Table } from '#common/contract/sql.ts';
import { visibleTables, type TableRef } from '#server/access/policy.ts';
import {
  openTable,
  ownsTableJob,
  type Caller,
  type TableAccessContext,
} from '#server/access/table-access.ts';
import { bulkKey, checkBulkSet, type BulkSelection } from '#server/engines/bulk-writes.ts';
import { referencingColumnsIndexed } from '#server/engines/referencing-rows.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import { badInput, EngineError } from '#server/engines/engine-error.ts';
import type { JobRunner } from '#server/jobs/job-runner.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import { endBulkJob, findBulkJob, insertBulkJob, type BulkJobRow } from '#server/store/bulk-jobs.ts';
import type { BulkPayload, BulkRequest } from './bulk-job.ts';

/*
 * The bulk calls' work (issue 38, docs/decisions/0068-bulk-changes.md). The set of rows is the server's: the filter
 * document's rows (each condition checked against the catalog), narrowed to the keys of a hand-made selection (each
 * key must name a row the filter keeps), under the caller's rights on the table: CanUpdate for an update, CanDelete
 * for a delete, checked as the single-row calls check them (openTable). A filter with no conditions and no keys takes
 * every row only with allRows: true.
 */

export interface BulkContext extends TableAccessContext {
  runner: JobRunner<BulkPayload>;
}

/** The table opened for the action, the selection and the checked values to set. */
interface OpenedBulk {
  engine: DatabaseEngine;
  table: Table;
  selection: BulkSelection;
  set: Row | null;
}

const keyText = (names: string[], row: Row) => JSON.stringify(names.map((name) => row[name] ?? null));

async function openBulk(
  context: TableAccessContext,
  caller: Caller,
  ref: TableRef,
  body: BulkPreviewBody,
): Promise<OpenedBulk> {
  const { engine, table } = await openTable(context, caller, ref, body.action);
  if (table.isView) throw badInput(`${table.name} is a view; its rows cannot be changed here.`);
  const names = bulkKey(table);
  let set: Row | null = null;
  if (body.action === 'update') {
    if (!body.set || Object.keys(body.set).length === 0) throw badInput(bulkMessages.setRequired);
    set = checkBulkSet(table, body.set);
  } else if (body.set && Object.keys(body.set).length > 0) throw badInput(bulkMessages.setOnDelete);
  const where = body.where;
  if ((!where || keepsEveryRow(where)) && body.keys === undefined && body.allRows !== true)
    throw badInput(bulkMessages.allRowsRequired);
  let keys: Row[] | undefined;
  if (body.keys) {
    // One of each, and only the key's columns: nothing else a browser sends takes part.
    const unique = new Map<string, Row>();
    for (const given of body.keys) {
      const missing = names.filter((name) => given[name] === undefined || given[name] === null);
      if (missing.length) throw badInput(`Each selected row needs its key: ${names.join(', ')}.`);
      const key = Object.fromEntries(names.map((name) => [name, given[name] ?? null]));
      unique.set(keyText(names, key), key);
    }
    keys = [...unique.values()];
    if (keys.length > 0) {
      // Each key must name a row the filter keeps: a key outside it (forged, or a row changed since) is refused.
      const found = await engine.readBulk(table, {
        selection: { where, keys },
        after: null,
        limit: keys.length,
      });
      const seen = new Set(found.map((row) => keyText(names, row)));
      const missing = keys.filter((key) => !seen.has(keyText(names, key)));
      if (missing.length)
        throw badInput(bulkMessages.keyMissing(missing.slice(0, 5).map((key) => JSON.stringify(key))));
    }
  }
  return { engine, table, selection: { where, keys }, set };
}

async function countOf(opened: OpenedBulk): Promise<{ count: number; capped: boolean }> {
  const counted = await opened.engine.countBulk(opened.table, opened.selection, BULK_COUNT_CAP);
  return counted > BULK_COUNT_CAP
    ? { count: BULK_COUNT_CAP, capped: true }
    : { count: counted, capped: false };
}

/** The foreign keys of tables the caller may read that point at this table, with their ON DELETE rule and how many
 * of their rows point at the selection: counted only where the referencing columns lead an index (one join per
 * foreign key, stopping after BULK_REFERENCES_COUNT_CAP), else null, as the References call decides (0065). */
async function referencesTo(opened: OpenedBulk, caller: Caller, ref: TableRef) {
  const { engine, table, selection } = opened;
  const answers: BulkReference[] = [];
  for (const referencing of visibleTables(caller.account, ref.database, await engine.catalog())) {
    for (const fk of referencing.foreignKeys) {
      if (fk.referencedSchema !== table.schema || fk.referencedTable !== table.name) continue;
      const count = referencingColumnsIndexed(referencing, fk.columns)
        ? await engine.countBulkReferencing(table, selection, referencing, fk, BULK_REFERENCES_COUNT_CAP)
        : null;
      const capped = count !== null && count > BULK_REFERENCES_COUNT_CAP;
      answers.push({
        schema: referencing.schema,
        table: referencing.name,
        columns: fk.columns,
        onDelete: fk.onDelete,
        count: capped ? BULK_REFERENCES_COUNT_CAP : count,
        capped,
      });
    }
  }
  return answers;
}

/** POST …/bulk/preview: the count, the first rows before and after, and for a delete what points at the table. */
export async function previewBulk(
  context: TableAccessContext,
  caller: Caller,
  ref: TableRef,
  body: BulkPreviewBody,
): Promise<BulkPreview> {
  const opened = await openBulk(context, caller, ref, body);
  const { count, capped } = await countOf(opened);
  const rows = await opened.engine.readBulk(opened.table, {
    selection: opened.selection,
    after: null,
    limit: BULK_SAMPLE_SIZE,
  });
  const sample = rows.map((before) => ({
    before,
    after: opened.set === null ? null : { ...before, ...opened.set },
  }));
  const preview: BulkPreview = { count, capped, sample };
  if (body.action === 'delete') preview.references = await referencesTo(opened, caller, ref);
  return preview;
}

/** POST …/bulk: the count checked against the confirmed one (409 with the new count), then the job queued. */
export async function startBulk(
  context: BulkContext,
  caller: Caller,
  ref: TableRef,
  body: BulkRunBody,
): Promise<{ id: string }> {
  const { expectedCount, ...preview } = body;
  const opened = await openBulk(context, caller, ref, preview);
  const { count, capped } = await countOf(opened);
  if (count !== expectedCount)
    throw new EngineError(409, bulkMessages.countChanged(count, capped), { data: { count, capped } });
  const id = randomUUID();
  const request: BulkRequest = {
    action: body.action,
    where: opened.selection.where,
    keys: opened.selection.keys,
    set: opened.set,
    count,
    capped,
    address: caller.address,
  };
  await insertBulkJob(
    context.store.db,
    {
      id,
      userId: caller.account.userId,
      database: ref.database,
      schema: ref.schema,
      table: ref.table,
      action: body.action,
      request: JSON.stringify(request),
      rowsTotal: count,
      rowsTotalCapped: capped,
    },
    new Date().toISOString(),
  );
  await context.runner.enqueue(id, { jobId: id });
  return { id };
}

/** The caller's own job of this table, else a 404 (another user's job is not told apart from none). */
async function ownJob(
  context: TableAccessContext,
  caller: Caller,
  ref: TableRef,
  id: string,
): Promise<BulkJobRow> {
  const job = await findBulkJob(context.store.db, id);
  if (!job || !ownsTableJob(job, caller, ref)) throw new ApiError(404, bulkMessages.jobNotFound);
  return job;
}

function statusOf(job: BulkJobRow): BulkStatus {
  const inProgress = job.status === 'queued' || job.status === 'running';
  const total = job.rows_total;
  const percentage =
    job.status === 'done' ? 100 : total > 0 ? Math.min(100, Math.floor((job.rows_done * 100) / total)) : 0;
  return {
    state: job.status as BulkStatus['state'],
    inProgress,
    percentageCompleted: percentage,
    done: job.rows_done,
    total,
    auditId: job.audit_id,
    error: job.error,
  };
}

/** GET …/bulk/{id}. */
export async function bulkStatus(
  context: TableAccessContext,
  caller: Caller,
  ref: TableRef,
  id: string,
): Promise<BulkStatus> {
  return statusOf(await ownJob(context, caller, ref, id));
}

/** POST …/bulk/{id}/cancel: the job stops after the batch in hand; the rows changed before stay, audited. */
export async function cancelBulk(
  context: BulkContext,
  caller: Caller,
  ref: TableRef,
  id: string,
): Promise<BulkStatus> {
  await ownJob(context, caller, ref, id);
  if (
    await endBulkJob(
      context.store.db,
      id,
      { status: 'cancelled', error: bulkMessages.cancelled },
      new Date().toISOString(),
    )
  )
    context.runner.stop(id, 'cancelled');
  return statusOf(await ownJob(context, caller, ref, id));
}
