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
  type ImportJobRow,
  type ImportProgress,
} from '#server/store/import-jobs.ts';
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
interface CheckedRow {
  row: number;
  values: Row;
  failed: boolean;
}

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
class FailureSink {
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
class SeenKeys {
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
class ImportCheck {
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

  /** A record's values checked against their columns (no database asked). */
  checkRecord(record: FileRecord): CheckedRow {
    const checked: CheckedRow = { row: record.row, values: {}, failed: false };
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
      const found = await this.engine.existingKeys(fk.table, fk.referenced, [...wanted.values()]);
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
      const found = await this.engine.existingKeys(this.table, names, keys);
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
      const found = await this.engine.existingKeys(
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
      if (!row.failed && isExisting(row)) {
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
    const body = importRunBody.parse(JSON.parse(job.request ?? '{}'));
    const engine = deps.databases.get(job.database_name);
    if (!engine) throw new EngineError(404, `The database ${job.database_name} is gone.`);
    const table = await engine.table(job.schema_name, job.table_name);
    const referenced = new Map<string, Table>();
    for (const fk of table.foreignKeys) {
      const target = await engine.table(fk.referencedSchema, fk.referencedTable).catch(() => null);
      if (target) referenced.set(JSON.stringify([fk.referencedSchema, fk.referencedTable]), target);
    }
    if (!(await markImportRunning(store.db, job.id, now()))) return;

    const reader = openFileReader(importFile(deps.folder, job.id, 'upload'), options);
    const failures = new FailureSink(importFile(deps.folder, job.id, 'errors'));
    const seen = new SeenKeys(importFile(deps.folder, job.id, 'keys'));
    const size = Number(job.file_size);
    let check: ImportCheck | null = null;
    const progress = (done: boolean): ImportProgress => ({
      percentage: done ? 100 : size > 0 ? Math.min(99, Math.floor((reader.bytesRead() * 100) / size)) : 0,
      ...(check?.counts ?? { inserted: 0, updated: 0, skipped: 0, failed: 0 }),
      errors: JSON.stringify(failures.first),
    });
    let outcome: { status: 'done' | 'failed' | 'cancelled'; error: string | null } = {
      status: 'done',
      error: null,
    };
    try {
      let batch: CheckedRow[] = [];
      let number = 0;
      const flush = async (): Promise<boolean> => {
        await deps.beforeBatch?.(number++);
        if (check && batch.length > 0) await check.checkBatch(batch);
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
        deps.log.error({ err: error, import: job.id }, 'import check failed');
    } finally {
      reader.close();
      seen.close();
      await failures.close();
    }
    await endImportRun(
      store.db,
      job.id,
      { ...outcome, progress: progress(outcome.status === 'done') },
      now(),
    );
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
  return 'The check stopped on an unexpected error; the server log has its details.';
}
