import fs from 'node:fs';
import Database from 'better-sqlite3';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import {
  IMPORT_STATUS_ERRORS,
  importMessages as im,
  importOptions,
  importRunBody,
  type ImportFailure,
} from '#common/contract/imports.ts';
import type { CellValue, Column, Row, Table } from '#common/contract/sql.ts';
import type { DatabaseRegistry } from '#server/engines/database-registry.ts';
import type { DatabaseEngine, EngineKind } from '#server/engines/engine.ts';
import { EngineError } from '#server/engines/engine-error.ts';
import { checkValue } from '#server/engines/wire-values.ts';
import { stopReasonOf, type JobDefinition } from '#server/jobs/job-runner.ts';
import type { AppStore } from '#server/store/app-store.ts';
import {
  endImportRun,
  findImportJob,
  markImportRunning,
  recordImportProgress,
  setImportAudit,
  type ImportJobRow,
  type ImportProgress,
} from '#server/store/import-jobs.ts';
import { tablePath } from '#common/links.ts';
import type { ImportBatchResult, ImportWriter } from '#server/engines/import-writes.ts';
import { auditedRow } from '#server/features/audit/row-audit.ts';
import { auditedBatch, batchHappened, recordBatch, rightLost } from '#server/features/bulk/bulk-job.ts';
import { setAuditDetail, writeAudit } from '#server/store/audit.ts';
import { settleBulkBatch } from '#server/store/bulk-jobs.ts';
import { importFile, openFileReader, UnreadableFile, type FileRecord } from './import-files.ts';
import { checkMapping, type MappedColumn } from './import-mapping.ts';

/*
 * The dry run (issue 39, docs/decisions/0069-imports.md): the whole file read a record at a time, a batch of rows at
 * a time, and nothing written. Each row's values are checked against their columns as a single-row save checks them
 * (checkValue: type, length, precision), empty values against NOT NULL; then, a batch at a time, the primary key
 * against the keys seen earlier in the file (a scratch SQLite file beside the upload, so memory stays one batch), the
 * foreign keys against their tables (one statement per batch and foreign key) and the key against the table (one
 * statement per batch) to tell inserted, updated, skipped and failed apart by the mode. Every failure goes to the
 * report file; the first IMPORT_STATUS_ERRORS also to the import's row, which the status call reads.
 */

/** Rows a batch checks at once: one key statement and one per foreign key each. */
export const IMPORT_CHECK_BATCH = 500;

export const importPayload = z.object({ importId: z.string() });

/** Where the run call came from, kept with its body for the audit entry. */
const runAddress = z.object({ address: z.string().nullable().optional() });
export type ImportPayload = z.infer<typeof importPayload>;

export interface ImportCheckDeps {
  store: AppStore;
  databases: DatabaseRegistry;
  folder: string;
  log: FastifyBaseLogger;
  /** Rows a batch takes (tests: a few). */
  batchSize?: number;
  /** Tests: awaited before each batch is checked (its number, from 0), to hold a run at a known point. */
  beforeBatch?: (batch: number) => Promise<void>;
}

const now = () => new Date().toISOString();

/** A row of the file as checked: its values by table column, and whether it failed already. */
export interface CheckedRow {
  row: number;
  values: Row;
  failed: boolean;
  /** Its key matched a row of the table (checkBatch): an upsert updates it, skipExisting skips it. */
  existing: boolean;
}

/** Which of a batch of keys a table holds (DatabaseEngine.existingKeys, or an import writer's on its transaction). */
export type KeyLookup = (table: Table, columns: string[], keys: Row[]) => Promise<Row[]>;

/** A number's text as comparisons see it: no sign on zero, no leading zeros, no trailing zeros after the point. */
function canonicalNumber(text: string): string {
  const match = /^([-+]?)(\d*)(?:\.(\d*))?$/.exec(text.trim());
  if (!match) {
    const number = Number(text);
    return Number.isFinite(number) ? String(number) : text;
  }
  const whole = (match[2] ?? '').replace(/^0+/, '') || '0';
  const fraction = (match[3] ?? '').replace(/0+$/, '');
  const sign = match[1] === '-' && (whole !== '0' || fraction !== '') ? '-' : '';
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * A key value as the database compares it, as far as it can be told without asking: numbers by value, GUIDs in lower
 * case, and text on MySQL and SQL Server without case or trailing spaces (their usual collations).
 */
function comparable(kind: EngineKind, column: Column, value: CellValue): string {
  if (value === null) return '\u0000';
  const text = String(value);
  if (column.typeGroup === 'Number') return canonicalNumber(text);
  if (column.typeGroup === 'guid') return text.replace(/[{}]/g, '').toLowerCase();
  if (column.typeGroup === 'Text' && (kind === 'mysql' || kind === 'mssql'))
    return text.toLowerCase().trimEnd();
  return text;
}

const keyText = (kind: EngineKind, columns: Column[], values: Row): string =>
  JSON.stringify(columns.map((column) => comparable(kind, column, values[column.name] ?? null)));

/** A key as messages show it: `{"id":5}`. */
const shownKey = (columns: Column[], values: Row) =>
  JSON.stringify(Object.fromEntries(columns.map((column) => [column.name, values[column.name] ?? null])));

/** One field of the report: quoted when it must be (RFC 4180), and never taken for a formula by a spreadsheet. */
function csvField(text: string): string {
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Where a run's failures go: the report file, and the first ones kept for the status. */
export class FailureSink {
  readonly first: ImportFailure[] = [];
  private readonly out: fs.WriteStream;
  constructor(file: string) {
    this.out = fs.createWriteStream(file);
    this.out.write('row,column,message\n');
  }
  add(failure: ImportFailure): void {
    if (this.first.length < IMPORT_STATUS_ERRORS) this.first.push(failure);
    this.out.write(`${failure.row},${csvField(failure.column ?? '')},${csvField(failure.message)}\n`);
  }
  /** Waits for the file to drain when it is behind (a long run of failures). */
  async drain(): Promise<void> {
    if (this.out.writableNeedDrain)
      await new Promise<void>((resolve) => this.out.once('drain', () => resolve()));
  }
  close(): Promise<void> {
    return new Promise((resolve, reject) =>
      this.out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  }
}

/** The keys seen earlier in the file, on disk: a duplicate is found without the file's keys in memory. */
export class SeenKeys {
  private readonly db: Database.Database;
  private readonly add: Database.Statement<[string, number]>;
  private readonly firstRow: Database.Statement<[string], { row: number }>;
  constructor(private readonly file: string) {
    fs.rmSync(file, { force: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.exec('create table seen (key text primary key, row integer not null) without rowid');
    this.add = this.db.prepare('insert or ignore into seen (key, row) values (?, ?)');
    this.firstRow = this.db.prepare('select row from seen where key = ?');
  }
  /** Records the rows' keys in one transaction; answers, for each key seen before, the row it was first on. */
  record(keys: { key: string; row: number }[]): Map<number, number> {
    const earlier = new Map<number, number>();
    this.db.transaction(() => {
      for (const { key, row } of keys) {
        if (this.add.run(key, row).changes === 0) earlier.set(row, this.firstRow.get(key)?.row ?? 0);
      }
    })();
    return earlier;
  }
  close(): void {
    this.db.close();
    fs.rmSync(this.file, { force: true });
  }
}

/** The checks of one run over one table. */
export class ImportCheck {
  readonly counts = { inserted: 0, updated: 0, skipped: 0, failed: 0 };
  private readonly keyColumns: Column[];
  /** The table's other unique indexes whose columns are all mapped: a value may be in the file or the table once. */
  private readonly uniqueKeys: { columns: Column[] }[] = [];
  private readonly foreignKeys: { columns: Column[]; referenced: string[]; table: Table }[] = [];

  constructor(
    private readonly engine: DatabaseEngine,
    private readonly table: Table,
    private readonly mapped: MappedColumn[],
    private readonly mode: 'insert' | 'upsert' | 'skipExisting',
    private readonly failures: FailureSink,
    private readonly seen: SeenKeys,
    referenced: Map<string, Table>,
    private readonly lookup: KeyLookup = (of, columns, keys) => engine.existingKeys(of, columns, keys),
  ) {
    const byName = new Map(mapped.map((m) => [m.column.name, m.column]));
    const key = table.primaryKey.map((name) => byName.get(name));
    this.keyColumns = key.every((column) => column !== undefined) ? (key as Column[]) : [];
    const primary = JSON.stringify([...table.primaryKey].sort());
    for (const index of table.indexes) {
      if (!index.isUnique || index.isPrimaryKey || JSON.stringify([...index.columns].sort()) === primary)
        continue;
      const columns = index.columns.map((name) => byName.get(name));
      if (columns.length > 0 && columns.every((column) => column !== undefined))
        this.uniqueKeys.push({ columns: columns as Column[] });
    }
    for (const fk of table.foreignKeys) {
      const columns = fk.columns.map((name) => byName.get(name));
      const target = referenced.get(JSON.stringify([fk.referencedSchema, fk.referencedTable]));
      if (target && columns.every((column) => column !== undefined))
        this.foreignKeys.push({
          columns: columns as Column[],
          referenced: fk.referencedColumns,
          table: target,
        });
    }
  }

  private fail(row: CheckedRow, column: string | null, message: string): void {
    row.failed = true;
    this.failures.add({ row: row.row, column, message });
  }

  /** A row the check passed that the database refused when it was written: counted as failed, with its reason. */
  refuse(row: CheckedRow, message: string): void {
    if (row.failed) return;
    if (row.existing && this.mode === 'upsert') this.counts.updated -= 1;
    else if (!row.existing) this.counts.inserted -= 1;
    this.counts.failed += 1;
    this.fail(row, null, message);
  }

  /** A record's values checked against their columns (no database asked). */
  checkRecord(record: FileRecord): CheckedRow {
    const checked: CheckedRow = { row: record.row, values: {}, failed: false, existing: false };
    if (record.problem) {
      this.fail(checked, null, record.problem);
      return checked;
    }
    for (const { fileColumn, column } of this.mapped) {
      const value = record.values[fileColumn] ?? null;
      if (value === null) {
        // The database numbers an identity left empty, and a column with a default takes it.
        if (column.isIdentity || column.defaultValue !== null || column.defaultIsExpression) continue;
        if (!column.isNullable)
          this.fail(checked, column.name, `${column.name} cannot be empty: give it a value.`);
        else checked.values[column.name] = null;
        continue;
      }
      try {
        const given = checkValue(column, value);
        checked.values[column.name] = Buffer.isBuffer(given) ? given.toString('base64') : given;
      } catch (error) {
        if (!(error instanceof EngineError)) throw error;
        this.fail(checked, column.name, error.message);
      }
    }
    return checked;
  }

  /** The batch's checks that ask: duplicates in the file, foreign keys, keys already in the table; then counts. */
  async checkBatch(rows: CheckedRow[]): Promise<void> {
    const kind = this.engine.kind;
    const keyed = (row: CheckedRow) =>
      this.keyColumns.length > 0 && this.keyColumns.every((column) => row.values[column.name] != null);
    const withKey = rows.filter((row) => keyed(row));
    const earlier = this.seen.record(
      withKey.map((row) => ({ key: `k${keyText(kind, this.keyColumns, row.values)}`, row: row.row })),
    );
    for (const row of withKey) {
      const first = earlier.get(row.row);
      if (first !== undefined && !row.failed)
        this.fail(
          row,
          this.keyColumns[0]?.name ?? null,
          `The key ${shownKey(this.keyColumns, row.values)} is also on row ${first} of the file.`,
        );
    }

    // A unique index's value twice in the file (NULLs are never the same value).
    this.uniqueKeys.forEach((unique, i) => {
      const valued = rows.filter(
        (row) => !row.failed && unique.columns.every((column) => row.values[column.name] != null),
      );
      const again = this.seen.record(
        valued.map((row) => ({ key: `u${i}${keyText(kind, unique.columns, row.values)}`, row: row.row })),
      );
      for (const row of valued) {
        const first = again.get(row.row);
        if (first !== undefined)
          this.fail(
            row,
            unique.columns[0]?.name ?? null,
            `${shownKey(unique.columns, row.values)} is also on row ${first} of the file, and must be unique.`,
          );
      }
    });

    for (const fk of this.foreignKeys) {
      const pointing = rows.filter(
        (row) => !row.failed && fk.columns.every((column) => row.values[column.name] != null),
      );
      if (pointing.length === 0) continue;
      const refColumns = fk.referenced.map((name) => fk.table.columns.find((c) => c.name === name));
      if (refColumns.some((column) => column === undefined)) continue;
      const wanted = new Map<string, Row>();
      for (const row of pointing) {
        const key: Row = {};
        fk.columns.forEach((column, i) => (key[fk.referenced[i] ?? ''] = row.values[column.name] ?? null));
        wanted.set(keyText(kind, refColumns as Column[], key), key);
      }
      const found = await this.lookup(fk.table, fk.referenced, [...wanted.values()]);
      const present = new Set(found.map((key) => keyText(kind, refColumns as Column[], key)));
      for (const row of pointing) {
        const key: Row = {};
        fk.columns.forEach((column, i) => (key[fk.referenced[i] ?? ''] = row.values[column.name] ?? null));
        if (present.has(keyText(kind, refColumns as Column[], key))) continue;
        const shown = fk.columns.map((column) => JSON.stringify(row.values[column.name] ?? null)).join(', ');
        this.fail(
          row,
          fk.columns[0]?.name ?? null,
          `${fk.columns.map((c) => c.name).join(', ')}: ${shown} is not in ${fk.table.name} (${fk.referenced.join(', ')}).`,
        );
      }
    }

    let existing = new Set<string>();
    const asked = withKey.filter((row) => !row.failed);
    if (asked.length > 0) {
      const names = this.keyColumns.map((column) => column.name);
      const keys = asked.map((row) =>
        Object.fromEntries(names.map((name) => [name, row.values[name] ?? null])),
      );
      const found = await this.lookup(this.table, names, keys);
      existing = new Set(found.map((key) => keyText(kind, this.keyColumns, key)));
    }
    // A row that would be inserted must not meet a unique index's value already in the table (a row matched by its
    // key is updated or skipped instead: its own values are not checked against the others').
    const isExisting = (row: CheckedRow) =>
      keyed(row) && existing.has(keyText(kind, this.keyColumns, row.values));
    for (const unique of this.uniqueKeys) {
      const inserted = rows.filter(
        (row) =>
          !row.failed &&
          !isExisting(row) &&
          unique.columns.every((column) => row.values[column.name] != null),
      );
      if (inserted.length === 0) continue;
      const names = unique.columns.map((column) => column.name);
      const found = await this.lookup(
        this.table,
        names,
        inserted.map((row) => Object.fromEntries(names.map((name) => [name, row.values[name] ?? null]))),
      );
      const taken = new Set(found.map((values) => keyText(kind, unique.columns, values)));
      for (const row of inserted)
        if (taken.has(keyText(kind, unique.columns, row.values)))
          this.fail(
            row,
            unique.columns[0]?.name ?? null,
            `${shownKey(unique.columns, row.values)} is already in the table, and must be unique.`,
          );
    }
    for (const row of rows) {
      row.existing = isExisting(row);
      if (!row.failed && row.existing) {
        if (this.mode === 'upsert') this.counts.updated += 1;
        else if (this.mode === 'skipExisting') this.counts.skipped += 1;
        else
          this.fail(
            row,
            this.keyColumns[0]?.name ?? null,
            `A row with the key ${shownKey(this.keyColumns, row.values)} is already in the table.`,
          );
      } else if (!row.failed) this.counts.inserted += 1;
      if (row.failed) this.counts.failed += 1;
    }
  }
}

/** The dry run's job on the in-process runner. */
export function importCheckJob(deps: ImportCheckDeps): JobDefinition<ImportPayload> {
  const { store } = deps;
  const batchSize = deps.batchSize ?? IMPORT_CHECK_BATCH;

  async function run(job: ImportJobRow, signal: AbortSignal): Promise<void> {
    const options = importOptions.parse(JSON.parse(job.options));
    const request: unknown = JSON.parse(job.request ?? '{}');
    const body = importRunBody.parse(request);
    const address = runAddress.safeParse(request).data?.address ?? null;
    const engine = deps.databases.get(job.database_name);
    if (!engine) throw new EngineError(404, `The database ${job.database_name} is gone.`);
    const database: DatabaseEngine = engine;
    const table = await engine.table(job.schema_name, job.table_name);
    const referenced = new Map<string, Table>();
    for (const fk of table.foreignKeys) {
      const target = await engine.table(fk.referencedSchema, fk.referencedTable).catch(() => null);
      if (target) referenced.set(JSON.stringify([fk.referencedSchema, fk.referencedTable]), target);
    }
    if (!(await markImportRunning(store.db, job.id, now()))) return;

    // A run that writes (decision 0070): one audit entry, written before any row is, and a writer holding one
    // transaction for the whole file (all-or-nothing) or one a batch (skip).
    const writing = job.dry_run === 0;
    const allOrNothing = body.onError === 'rollback';
    let writer: ImportWriter | null = null;
    let auditId: number | null = null;
    /** Batches whose rows were recorded in the audit and wait for the one commit (all-or-nothing). */
    const recorded: number[] = [];
    let written = 0;
    const auditDetail = {
      change: 'import',
      job: job.id,
      file: job.file_name,
      size: Number(job.file_size),
      mode: body.mode,
      onError: body.onError,
    };

    const reader = openFileReader(importFile(deps.folder, job.id, 'upload'), options);
    const failures = new FailureSink(importFile(deps.folder, job.id, 'errors'));
    const seen = new SeenKeys(importFile(deps.folder, job.id, 'keys'));
    const size = Number(job.file_size);
    let check: ImportCheck | null = null;
    const counts = () => check?.counts ?? { inserted: 0, updated: 0, skipped: 0, failed: 0 };
    const progress = (done: boolean): ImportProgress => ({
      percentage: done ? 100 : size > 0 ? Math.min(99, Math.floor((reader.bytesRead() * 100) / size)) : 0,
      ...counts(),
      errors: JSON.stringify(failures.first),
    });
    let outcome: { status: 'done' | 'failed' | 'cancelled'; error: string | null } = {
      status: 'done',
      error: null,
    };

    /** The rows of a checked batch that are to be written, written (and audited before they commit). */
    async function write(rows: CheckedRow[], number: number): Promise<void> {
      if (!writer || !check || auditId === null) return;
      // All-or-nothing after a failure: nothing will commit, so the rest of the file is only checked.
      if (allOrNothing && check.counts.failed > 0) return;
      const chosen = rows.filter((row) => !row.failed && (!row.existing || body.mode === 'upsert'));
      if (chosen.length === 0) return;
      const entry = auditId;
      /** The batch's rows once recorded in the audit (set from the writer's callback). */
      const held: { made: ImportBatchResult | null } = { made: null };
      const writing = writer.writeBatch(
        chosen.map((row) => ({ values: row.values, existing: row.existing })),
        {
          stopAtFirstRefusal: allOrNothing,
          beforeCommit: async (made) => {
            if (made.changes.length === 0) return;
            await recordBatch(
              store,
              deps.log,
              {
                auditId: entry,
                batch: number,
                rowCount: made.changes.length,
                rows: auditedBatch(table, made.changes),
              },
              { import: job.id },
              'import batch',
            );
            held.made = made;
          },
        },
      );
      let result: ImportBatchResult;
      try {
        result = await writing;
      } catch (error) {
        // A skip-mode batch recorded before its commit failed: whether it committed is told by its first row, as a
        // bulk change's is (the commit's answer may be what was lost); the record is settled either way.
        const made = held.made;
        const first = made?.changes[0];
        if (!allOrNothing && made && first) {
          const happened = await batchHappened(database, table, {
            key: first.key,
            after: auditedRow(table, first.after),
          }).catch(() => false);
          await settleBulkBatch(store.db, entry, number, happened).catch(() => undefined);
          if (happened) written += made.changes.length;
        }
        throw error;
      }
      for (const refused of result.refused) {
        const row = chosen[refused.index];
        if (row) check.refuse(row, refused.message);
      }
      if (!held.made) return;
      if (allOrNothing) recorded.push(number);
      else {
        await settleBulkBatch(store.db, entry, number, true);
        written += result.changes.length;
      }
    }

    try {
      if (writing) {
        writer = await engine.openImportWriter(table, { oneTransaction: allOrNothing });
        auditId = await writeAudit(store.db, {
          userId: job.user_id,
          action: 'data.bulk',
          target: tablePath(job.database_name, job.schema_name, job.table_name),
          detail: { ...auditDetail, rows: 0, status: 'running' },
          address,
        });
        await setImportAudit(store.db, job.id, auditId);
      }
      let batch: CheckedRow[] = [];
      let number = 0;
      const flush = async (): Promise<boolean> => {
        const current = number++;
        await deps.beforeBatch?.(current);
        if (writing) {
          // The rights asked again before each batch, as a bulk change does (a change of roles lands within one).
          const lost =
            (await rightLost(store, job, 'insert', new Date())) ??
            (body.mode === 'upsert' ? await rightLost(store, job, 'update', new Date()) : null);
          if (lost) throw new EngineError(403, lost);
        }
        if (check && batch.length > 0) {
          await check.checkBatch(batch);
          await write(batch, current);
        }
        batch = [];
        await failures.drain();
        if (stopReasonOf(signal)) return false;
        return recordImportProgress(store.db, job.id, progress(false), now());
      };
      for await (const record of reader.records) {
        // The file's columns are known once its first record is read (the header of a CSV file).
        check ??= new ImportCheck(
          engine,
          table,
          // JSON Lines' keys grow as lines are read: the run call checked the mapping against the preview's.
          checkMapping(body, options.format === 'jsonl' ? Object.keys(body.mapping) : reader.columns, table),
          body.mode,
          failures,
          seen,
          referenced,
          writer ? writer.existingKeys : undefined,
        );
        batch.push(check.checkRecord(record));
        if (batch.length >= batchSize && !(await flush())) {
          outcome = { status: 'cancelled', error: im.cancelled };
          break;
        }
      }
      if (outcome.status === 'done' && !(await flush()))
        outcome = { status: 'cancelled', error: im.cancelled };
    } catch (error) {
      outcome = { status: 'failed', error: describeFailure(error) };
      if (!(error instanceof UnreadableFile || error instanceof EngineError))
        deps.log.error({ err: error, import: job.id }, 'import run failed');
    } finally {
      reader.close();
      seen.close();
      await failures.close();
    }

    if (writer && allOrNothing) {
      const failed = counts().failed;
      // The one commit, only for a whole file without failure and a run still running (not cancelled meanwhile).
      let commit =
        outcome.status === 'done' &&
        failed === 0 &&
        (await recordImportProgress(store.db, job.id, progress(false), now()));
      try {
        await writer.finish(commit);
      } catch (error) {
        commit = false;
        await writer.finish(false).catch(() => undefined);
        outcome = { status: 'failed', error: describeFailure(error) };
      }
      for (const number of recorded)
        if (auditId !== null) await settleBulkBatch(store.db, auditId, number, commit);
      if (commit) written = counts().inserted + counts().updated;
      else {
        if (outcome.status === 'done')
          outcome = { status: 'failed', error: im.rolledBack(failed, failures.first[0]) };
        else if (outcome.status === 'cancelled') outcome.error = im.cancelledNothingWritten;
        if (check) Object.assign(check.counts, { inserted: 0, updated: 0, skipped: 0 });
      }
    }
    await endImportRun(
      store.db,
      job.id,
      { ...outcome, progress: progress(outcome.status === 'done') },
      now(),
    );
    if (auditId !== null)
      await setAuditDetail(store.db, auditId, {
        ...auditDetail,
        ...counts(),
        rows: written,
        status: outcome.status,
        error: outcome.error,
      });
  }

  return {
    name: 'import check',
    payload: importPayload,
    async handle(payload, context) {
      const job = await findImportJob(store.db, payload.importId);
      if (!job || job.status !== 'queued') return;
      try {
        await run(job, context.signal);
      } catch (error) {
        deps.log.error({ err: error, import: job.id }, 'import check failed');
        await endImportRun(
          store.db,
          job.id,
          { status: 'failed', error: describeFailure(error) },
          now(),
        ).catch(() => undefined);
      }
    },
  };
}

/** A failure as a sentence a person can act on (no stack, no SQL). */
function describeFailure(error: unknown): string {
  if (error instanceof UnreadableFile || error instanceof EngineError) return error.message;
  return 'The run stopped on an unexpected error; the server log has its details.';
}
