import fs from 'node:fs';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope } from '#common/contract/envelope.ts';
import {
  importJobParams,
  importMessages,
  importPreview,
  importRunBody,
  importStarted,
  importStatus,
  importUploadParts,
} from '#common/contract/imports.ts';
import { tableParams } from '#common/contract/sql.ts';
import { callerOf, refOf } from '#server/access/table-access.ts';
import type { DatabaseRegistry } from '#server/engines/database-registry.ts';
import { inProcessRunner } from '#server/jobs/in-process-runner.ts';
import type { JobRunner } from '#server/jobs/job-runner.ts';
import { success } from '#server/plugins/error-envelope.ts';
import { requireSignedIn } from '#server/plugins/session.ts';
import type { AppStore } from '#server/store/app-store.ts';
import {
  allImportIds,
  deleteImportJob,
  failUnfinishedImports,
  importsIdleSince,
} from '#server/store/import-jobs.ts';
import { recoverImportAudits } from './import-recovery.ts';
import { importCheckJob, type ImportCheckDeps, type ImportPayload } from './import-check.ts';
import { orphanImportFiles, removeImportFiles } from './import-files.ts';
import {
  cancelImport,
  importReport,
  importStatus as statusOf,
  previewImport,
  runImport,
  uploadImport,
  type ImportContext,
} from './import-service.ts';

/** Checks one instance runs at once. */
const CONCURRENCY = 2;
/** An import not touched for this long is removed with its files (as export files are kept a day). */
export const IMPORT_RETENTION_MS = 24 * 60 * 60 * 1000;
/** How often the retention sweep runs. */
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** The imports' runner and upkeep. */
export interface ImportQueue {
  runner: JobRunner<ImportPayload>;
  folder: string;
  sweep(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the imports' runner (in-process, as bulk changes'); the runs a restart interrupted are failed, and imports
 * idle for IMPORT_RETENTION_MS are removed with their files, at start and hourly (with the files no import owns).
 */
export async function openImportQueue(
  context: { store: AppStore; databases: DatabaseRegistry; folder: string; log: FastifyBaseLogger },
  options: Pick<ImportCheckDeps, 'batchSize' | 'beforeBatch'> = {},
): Promise<ImportQueue> {
  const { store, folder, log } = context;
  const restarted = new Date().toISOString();
  // The audited batches of runs that wrote are settled first (import-recovery.ts), then the runs failed.
  await recoverImportAudits(store, context.databases).catch((error: unknown) =>
    log.error({ err: error }, 'import audit recovery failed'),
  );
  await failUnfinishedImports(store.db, importMessages.restarted, restarted);
  const runner = inProcessRunner(importCheckJob({ ...context, ...options }), {
    concurrency: CONCURRENCY,
    log,
  });
  const sweep = async () => {
    for (const id of await importsIdleSince(
      store.db,
      new Date(Date.now() - IMPORT_RETENTION_MS).toISOString(),
    )) {
      await removeImportFiles(folder, id);
      await deleteImportJob(store.db, id);
    }
    // Files whose import is gone (deleted with its user, or an upload cut before its row was written).
    for (const file of await orphanImportFiles(folder, await allImportIds(store.db), 10 * 60 * 1000))
      await fs.promises.rm(file, { force: true });
  };
  await sweep();
  const sweeper = setInterval(() => {
    sweep().catch((error: unknown) => log.error({ err: error }, 'import sweep failed'));
  }, SWEEP_INTERVAL_MS);
  sweeper.unref();
  return {
    runner,
    folder,
    sweep,
    async close() {
      clearInterval(sweeper);
      await runner.close();
      await failUnfinishedImports(store.db, importMessages.restarted, new Date().toISOString());
    },
  };
}

/** Imports (issue 39): upload, preview, run (the dry run or the run that writes), status, cancel and the report. */
export function importRoutes(context: {
  store: AppStore;
  databases: DatabaseRegistry;
  queue: ImportQueue;
  maxBytes: number;
}): FastifyPluginAsyncZod {
  return async (app) => {
    const service: ImportContext = {
      store: context.store,
      databases: context.databases,
      runner: context.queue.runner,
      folder: context.queue.folder,
      maxBytes: context.maxBytes,
    };
    // Multipart for this plugin's routes only: the upload's file is streamed by the service, never buffered.
    await app.register(fastifyMultipart, { throwFileSizeLimit: false });
    app.addHook('onRequest', requireSignedIn);
    const tags = ['sql'];

    app.post(
      '/api/sql/:db/:schema/:table/import',
      {
        schema: {
          tags,
          summary:
            'Upload a file to import into the table (CanInsert): multipart/form-data with the file in a part named ' +
            'file and optional parts format (csv | jsonl | xlsx), delimiter, quote, header (true | false), encoding ' +
            '(utf-8 | latin1), sheet (XLSX: a name or a number from 1); what is not given is detected. Answers the ' +
            'import id',
          description:
            'The file is streamed to the data folder, at most IMPORT_MAX_BYTES (413 beyond, nothing kept). The ' +
            "format comes from the file's name (.csv, .tsv, .txt, .jsonl, .ndjson, .xlsx) unless given. The " +
            'delimiter is detected from the first lines (comma, semicolon, tab, pipe), the encoding from the bytes ' +
            '(valid UTF-8, else Latin-1; a BOM is dropped). An XLSX file is read through once here: a sheet the ' +
            'workbook lacks, or a file that cannot be read (not a workbook, a zip bomb, a DOCTYPE, too many texts, ' +
            'rows or columns), is a 400 naming it, and nothing is kept. The import is kept a day.',
          consumes: ['multipart/form-data'],
          params: tableParams,
          // Described for OpenAPI only: a multipart request has no parsed body (the service streams its parts).
          body: importUploadParts,
          response: { 200: envelope(importStarted) },
        },
      },
      async (request) =>
        success(await uploadImport(service, callerOf(request), refOf(request.params), request)),
    );
    app.get(
      '/api/sql/:db/:schema/:table/import/:id/preview',
      {
        schema: {
          tags,
          summary:
            "An import's first 50 rows as parsed, the file's columns, a proposed mapping onto the table's columns " +
            '(by name, case and punctuation ignored), each column’s type and whether it is required, what already ' +
            'blocks, and how the file is read',
          params: importJobParams,
          response: { 200: envelope(importPreview) },
        },
      },
      async (request) =>
        success(await previewImport(service, callerOf(request), refOf(request.params), request.params.id)),
    );
    app.post(
      '/api/sql/:db/:schema/:table/import/:id/run',
      {
        schema: {
          tags,
          summary:
            'Run an import as a job with a mapping and a mode. The dry run (dryRun: true) reads the whole file, ' +
            'writes nothing, and counts what would be inserted, updated, skipped and failed, naming every failure; ' +
            'the run (dryRun: false) writes the rows: all or nothing (onError: rollback) or the good ones (skip), ' +
            'as one audit entry (auditId) that the audit trail can undo',
          params: importJobParams,
          body: importRunBody,
          response: { 202: envelope(importStatus) },
        },
      },
      async (request, reply) =>
        reply
          .code(202)
          .send(
            success(
              await runImport(
                service,
                callerOf(request),
                refOf(request.params),
                request.params.id,
                request.body,
              ),
            ),
          ),
    );
    app.get(
      '/api/sql/:db/:schema/:table/import/:id',
      {
        schema: {
          tags,
          summary: `An import's state and its last run's counts and first failures (the report has all of them)`,
          params: importJobParams,
          response: { 200: envelope(importStatus) },
        },
      },
      async (request) =>
        success(await statusOf(service, callerOf(request), refOf(request.params), request.params.id)),
    );
    app.post(
      '/api/sql/:db/:schema/:table/import/:id/cancel',
      {
        schema: {
          tags,
          summary: 'Cancel the run under way: it stops after the batch in hand',
          params: importJobParams,
          response: { 200: envelope(importStatus) },
        },
      },
      async (request) =>
        success(await cancelImport(service, callerOf(request), refOf(request.params), request.params.id)),
    );
    app.get(
      '/api/sql/:db/:schema/:table/import/:id/report',
      {
        schema: {
          tags,
          summary:
            "Every failure of the import's last run as CSV: row (1 = the first data row), column, message",
          params: importJobParams,
        },
      },
      async (request, reply) => {
        const report = await importReport(
          service,
          callerOf(request),
          refOf(request.params),
          request.params.id,
        );
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${report.name}"`)
          .header('cache-control', 'no-store')
          .send(report.stream);
      },
    );
  };
}
