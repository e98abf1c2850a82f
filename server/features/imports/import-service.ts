import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { FastifyRequest } from 'fastify';
import {
  IMPORT_PREVIEW_ROWS,
  importFailure,
  importMessages as im,
  importOptions,
  type ImportOptions,
  type ImportPreview,
  importRunBody,
  type ImportRunBody,
  type ImportStatus,
} from '#common/contract/imports.ts';
import type { TableRef } from '#server/access/policy.ts';
import {
  openTable,
  ownsTableJob,
  type Caller,
  type TableAccessContext,
} from '#server/access/table-access.ts';
import { badInput, EngineError } from '#server/engines/engine-error.ts';
import { importKey } from '#server/engines/import-writes.ts';
import type { JobRunner } from '#server/jobs/job-runner.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import {
  endImportRun,
  findImportJob,
  insertImportJob,
  queueImportRun,
  type ImportJobRow,
} from '#server/store/import-jobs.ts';
import type { ImportPayload } from './import-check.ts';
import {
  importFile,
  importOptionsOf,
  openFileReader,
  readyToRead,
  receiveUpload,
  UnreadableFile,
  type FileRecord,
} from './import-files.ts';
import { checkMapping, isRequired, isWritable, mappingProblems, proposeMapping } from './import-mapping.ts';

/*
 * The import calls' work (issue 39, docs/decisions/0069-imports.md). The upload needs CanInsert on the table (the
 * right every mode needs); a run asks the policy again, and an upsert needs CanUpdate too. An import is its owner's:
 * anyone else's call about it, or a call naming another table, is the same 404 as for no import.
 */

export interface ImportContext extends TableAccessContext {
  runner: JobRunner<ImportPayload>;
  /** Where uploads and reports live ({DATA_DIR}/imports). */
  folder: string;
  /** IMPORT_MAX_BYTES. */
  maxBytes: number;
}

const now = () => new Date().toISOString();

/** POST …/import: the file streamed to the imports folder, how to read it worked out, the import's row written. */
export async function uploadImport(
  context: ImportContext,
  caller: Caller,
  ref: TableRef,
  request: FastifyRequest,
): Promise<{ id: string }> {
  const { table } = await openTable(context, caller, ref, 'insert');
  if (table.isView) throw badInput(`${table.name} is a view; rows cannot be imported into it.`);
  const id = randomUUID();
  const target = importFile(context.folder, id, 'upload');
  const upload = await receiveUpload(request, target, context.maxBytes);
  let options: ImportOptions;
  try {
    options = await readyToRead(target, importOptionsOf(upload));
    await insertImportJob(
      context.store.db,
      {
        id,
        userId: caller.account.userId,
        database: ref.database,
        schema: ref.schema,
        table: ref.table,
        fileName: upload.fileName,
        fileSize: upload.size,
        options: JSON.stringify(options),
      },
      now(),
    );
  } catch (error) {
    await fs.promises.rm(target, { force: true });
    throw error;
  }
  return { id };
}

/** The caller's own import of this table, else a 404 (another user's import is not told apart from none). */
async function ownImport(
  context: TableAccessContext,
  caller: Caller,
  ref: TableRef,
  id: string,
): Promise<ImportJobRow> {
  const job = await findImportJob(context.store.db, id);
  if (!job || !ownsTableJob(job, caller, ref)) throw new ApiError(404, im.notFound);
  return job;
}

/** The file's columns and first records (a malformed file is a 400 with its sentence). */
async function headOf(
  context: ImportContext,
  job: ImportJobRow,
): Promise<{ options: ImportOptions; columns: string[]; records: FileRecord[] }> {
  const options = importOptions.parse(JSON.parse(job.options));
  const reader = openFileReader(importFile(context.folder, job.id, 'upload'), options);
  const records: FileRecord[] = [];
  try {
    for await (const record of reader.records) {
      records.push(record);
      if (records.length >= IMPORT_PREVIEW_ROWS) break;
    }
  } catch (error) {
    if (error instanceof UnreadableFile) throw badInput(error.message);
    throw error;
  } finally {
    reader.close();
  }
  return { options, columns: [...reader.columns], records };
}

/** GET …/import/{id}/preview. */
export async function previewImport(
  context: ImportContext,
  caller: Caller,
  ref: TableRef,
  id: string,
): Promise<ImportPreview> {
  const job = await ownImport(context, caller, ref, id);
  const { table } = await openTable(context, caller, ref, 'insert');
  const { options, columns, records } = await headOf(context, job);
  const mapping = proposeMapping(columns, table);
  return {
    fileName: job.file_name,
    size: Number(job.file_size),
    options,
    fileColumns: columns,
    rows: records.map((record) =>
      columns.map((name) => {
        const value = record.values[name];
        return value === null || value === undefined ? null : String(value);
      }),
    ),
    columns: table.columns.map((column) => ({
      name: column.name,
      type: column.type,
      typeGroup: column.typeGroup,
      required: isRequired(column),
      writable: isWritable(column),
      isIdentity: column.isIdentity,
      isPrimaryKey: column.isPrimaryKey,
    })),
    mapping,
    problems: mappingProblems(mapping, table),
  };
}

/** POST …/import/{id}/run: the mapping checked, the rights asked again, the dry run or the run queued. */
export async function runImport(
  context: ImportContext,
  caller: Caller,
  ref: TableRef,
  id: string,
  body: ImportRunBody,
): Promise<ImportStatus> {
  const job = await ownImport(context, caller, ref, id);
  const { table } = await openTable(context, caller, ref, 'insert');
  if (body.mode === 'upsert') await openTable(context, caller, ref, 'update');
  // A run that writes keeps, for its audit and undo, each written row's key (identity, guid or primary key).
  if (!body.dryRun) importKey(table);
  if (job.status === 'queued' || job.status === 'running') throw new EngineError(409, im.running);
  const { columns } = await headOf(context, job);
  checkMapping(body, columns, table);
  if (
    !(await queueImportRun(
      context.store.db,
      id,
      { request: JSON.stringify({ ...body, address: caller.address }), dryRun: body.dryRun },
      now(),
    ))
  )
    throw new EngineError(409, im.running);
  await context.runner.enqueue(id, { importId: id });
  return statusOf(await ownImport(context, caller, ref, id));
}

function statusOf(job: ImportJobRow): ImportStatus {
  const errors = importFailure.array().safeParse(job.errors ? JSON.parse(job.errors) : []);
  return {
    state: job.status as ImportStatus['state'],
    dryRun: job.dry_run === null ? null : job.dry_run === 1,
    inProgress: job.status === 'queued' || job.status === 'running',
    percentageCompleted: job.status === 'done' ? 100 : job.percentage,
    inserted: job.inserted,
    updated: job.updated,
    skipped: job.skipped,
    failed: job.failed,
    errors: errors.success ? errors.data : [],
    auditId: job.audit_id,
    error: job.error,
  };
}

/** GET …/import/{id}. */
export async function importStatus(
  context: ImportContext,
  caller: Caller,
  ref: TableRef,
  id: string,
): Promise<ImportStatus> {
  return statusOf(await ownImport(context, caller, ref, id));
}

/** POST …/import/{id}/cancel: a run stops after the batch in hand. */
export async function cancelImport(
  context: ImportContext,
  caller: Caller,
  ref: TableRef,
  id: string,
): Promise<ImportStatus> {
  const job = await ownImport(context, caller, ref, id);
  // An all-or-nothing run that is cancelled commits nothing (the run checks its row before its one commit).
  const request = importRunBody.safeParse(JSON.parse(job.request ?? '{}'));
  const error =
    job.dry_run === 0 && request.success && request.data.onError === 'rollback'
      ? im.cancelledNothingWritten
      : im.cancelled;
  if (await endImportRun(context.store.db, id, { status: 'cancelled', error }, now()))
    context.runner.stop(id, 'cancelled');
  return statusOf(await ownImport(context, caller, ref, id));
}

/** GET …/import/{id}/report: every failure of the last run as CSV (row,column,message), streamed from its file. */
export async function importReport(
  context: ImportContext,
  caller: Caller,
  ref: TableRef,
  id: string,
): Promise<{ stream: NodeJS.ReadableStream | string; name: string }> {
  const job = await ownImport(context, caller, ref, id);
  const name = `${job.table_name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 100) || 'import'}-import-report.csv`;
  const file = importFile(context.folder, id, 'errors');
  if (job.status === 'uploaded' || !fs.existsSync(file)) return { stream: 'row,column,message\n', name };
  return { stream: fs.createReadStream(file), name };
}
