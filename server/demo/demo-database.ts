// The embedded demo database: what `npm start` shows when no databases are configured, so a first run has something
// real to browse. It is a small shop in SQLite whose columns cover every type group the browser and the row form
// handle, with enough rows (over 100,000 order lines) that paging, search and exports are exercised for real. The
// data is generated from fixed seeds, so every machine builds the same file.
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { DEMO_APPLICATION_ID, demoFileState } from './demo-file.ts';
import {
  DEMO_INDEX_DDL,
  DEMO_SCHEMA_VERSION,
  DEMO_TABLE_DDL,
  DEMO_TABLES,
  type DemoTable,
} from './demo-schema.ts';
import { seedDemoData, seedDerivedColumns } from './demo-seed.ts';

export { DEMO_TABLES, type DemoTable } from './demo-schema.ts';
export { DEMO_APPLICATION_ID } from './demo-file.ts';

/** The outcome of {@link ensureDemoDatabase}: whether the file was built now, and if so each table's row count. */
export interface DemoDatabaseResult {
  created: boolean;
  /** Rows seeded per table; empty when the file already existed (then it is only opened to read its marker). */
  rows: Record<string, number>;
}

/** Makes sure `file` holds the finished demo database, building it (atomically, via a temporary file) if not.
 * Throws rather than replace a SQLite database that has tables but is not a demo database. */
export function ensureDemoDatabase(file: string): DemoDatabaseResult {
  const state = demoFileState(file);
  if (state === 'finished') return { created: false, rows: {} };
  if (state === 'foreign') {
    throw new Error(
      `${file} is a database that DBUI did not create; not replacing it with the demo database`,
    );
  }
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  removeDatabaseFiles(temporary);
  try {
    const rows = buildDemoDatabase(temporary);
    syncToDisk(temporary);
    // A journal left beside an unfinished file would be replayed into the new one, so it goes first.
    removeSidecarFiles(file);
    renameSync(temporary, file);
    syncDirectory(dirname(file));
    return { created: true, rows };
  } finally {
    removeDatabaseFiles(temporary);
  }
}

/** Creates the schema and the rows in `file` in one transaction; the marker pragmas are written last. */
function buildDemoDatabase(file: string): Record<DemoTable, number> {
  const db = new Database(file);
  try {
    // The file stays private until it is renamed into place, so crash safety comes from the rename and an explicit
    // fsync, not from a rollback journal on disk.
    db.pragma('journal_mode = MEMORY');
    db.pragma('synchronous = OFF');
    db.pragma('foreign_keys = ON');
    return db.transaction(() => {
      for (const table of DEMO_TABLES) db.exec(DEMO_TABLE_DDL[table]);
      const rows = seedDemoData(db);
      for (const statement of DEMO_INDEX_DDL) db.exec(statement);
      seedDerivedColumns(db);
      db.pragma(`application_id = ${DEMO_APPLICATION_ID}`);
      db.pragma(`user_version = ${DEMO_SCHEMA_VERSION}`);
      return rows;
    })();
  } finally {
    db.close();
  }
}

function syncToDisk(file: string): void {
  const descriptor = openSync(file, 'r+');
  try {
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

/** Makes the rename durable where the platform allows it (directories cannot be opened for fsync on Windows). */
function syncDirectory(directory: string): void {
  try {
    const descriptor = openSync(directory, 'r');
    try {
      fsyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
  } catch {
    // Best effort only.
  }
}

function removeSidecarFiles(file: string): void {
  for (const suffix of ['-journal', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
}

function removeDatabaseFiles(file: string): void {
  rmSync(file, { force: true });
  removeSidecarFiles(file);
}
