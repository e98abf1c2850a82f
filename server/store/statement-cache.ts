import fs from 'node:fs';
import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** Statements kept per database: the app store's code has fewer distinct statements than this. */
export const STATEMENT_CACHE_SIZE = 500;

/** The database's statements, each compiled once; `inTransaction` tells whether a transaction is open on it. */
export interface CachedStatements extends SqliteDatabase {
  prepare(text: string): SQLite.Statement;
  inTransaction(): boolean;
  /** How many statements that write (any but SQLite's read-only ones) have been prepared to run: a value that
   * changes whenever anything may have been written, so what was read under an earlier one may be out of date. */
  writes(): number;
  /** A number that changes when another connection (another process, someone with the sqlite3 tool) commits a
   * change to the file, as SQLite's `data_version` does (commitsSeen below), from the next turn of the event loop
   * after the commit; it may change for this connection's own writes too (`writes` counts those). */
  dataVersion(): number;
}

/**
 * The database as Kysely's SQLite driver sees it, with each statement compiled once (issue 17 target 2). Kysely
 * prepares every query it runs again, and on the request path that compile was the costliest step of a signed-in
 * call's session read (better-sqlite3's prepare: the largest self time in a profile under load). A statement is
 * kept by its SQL text, the least recently used dropped past `size`; SQLite compiles a kept one again by itself
 * when the schema changed (a migration). One still being read (a stream over it) is busy: that query gets a fresh
 * statement. Kysely's driver runs each statement as soon as it has it (in the same turn), so counting the writing
 * ones here counts every write before it happens, with nothing read in between.
 */
export function cachingStatements(database: SQLite.Database, size = STATEMENT_CACHE_SIZE): CachedStatements {
  const statements = new Map<string, SQLite.Statement>();
  let writes = 0;
  const counted = (statement: SQLite.Statement) => {
    // BEGIN, COMMIT and ROLLBACK are read-only to SQLite; INSERT, UPDATE, DELETE and DDL are not.
    if (!statement.readonly) writes += 1;
    return statement;
  };
  let commits: CommitsSeen | undefined;
  /*
   * The version is read once a turn of the event loop: the calls of one turn (the requests of one poll of the
   * sockets) share a read, which was a system call on every signed-in call (about 8 µs of ~260 in a profile under
   * load, issue 17). Each of those requests had arrived when the turn began, so each is still answered as of a
   * moment after it arrived; a commit made during the turn counts from the next one.
   */
  let versionThisTurn: number | undefined;
  const forgetVersion = () => {
    versionThisTurn = undefined;
  };
  return {
    close: () => {
      commits?.close();
      database.close();
    },
    inTransaction: () => database.inTransaction,
    writes: () => writes,
    dataVersion() {
      if (versionThisTurn === undefined) {
        versionThisTurn = (commits ??= commitsSeen(database)).version();
        setImmediate(forgetVersion);
      }
      return versionThisTurn;
    },
    prepare(text: string) {
      const kept = statements.get(text);
      if (kept && !kept.busy) {
        // Most recently used last, so the first key is the one to drop.
        statements.delete(text);
        statements.set(text, kept);
        return counted(kept);
      }
      const statement = counted(database.prepare(text));
      if (!kept) {
        statements.set(text, statement);
        if (statements.size > size) statements.delete(statements.keys().next().value as string);
      }
      return statement;
    },
  };
}

const direct = new WeakMap<object, CachedStatements>();

/** Notes the statements behind an SQLite store's Kysely handle (app-store.ts). */
export function keepDirectStatements(db: object, statements: CachedStatements): void {
  direct.set(db, statements);
}

/**
 * The statements behind a Kysely handle of an SQLite store, or undefined (PostgreSQL, a transaction's handle). The
 * one read of every signed-in call (sessions.ts findLiveSession) runs on them directly: SQLite answers it in about
 * 9 µs, and Kysely's driver around it (its connection lock and promise chain) cost as much again, more under load.
 */
export function directStatementsOf(db: object): CachedStatements | undefined {
  return direct.get(db);
}

interface CommitsSeen {
  version(): number;
  close(): void;
}

/** The WAL-index header: its two copies (48 bytes each) at the start of the `-shm` file (sqlite.org/walformat.html,
 * "The WAL-Index Header"). What follows them (the readers' marks) changes on reads too, so it is not compared. */
const WAL_INDEX_HEADER_BYTES = 96;

/**
 * What `data_version` tells, at the cost of one read of 96 bytes (issue 17 target 2). SQLite's `pragma data_version`
 * starts and ends a read transaction: eight system calls (file locks, stats, a read of the file's header), and under
 * load the costliest step of a signed-in call left (15 µs of ~300 in a profile). In WAL mode (the app store's,
 * app-store.ts) SQLite itself decides whether another connection has committed by comparing the WAL-index header in
 * the `-shm` file with what it saw last: every commit by any connection rewrites it (its change counter, last frame
 * and checksums), and a checkpoint that restarts the log changes its salts. So here the version moves whenever those
 * bytes differ from the last ones read. A torn read (a commit writing them at that moment) differs too, which only
 * costs a read. The file stays while this connection is open (in WAL mode it holds a shared lock on the database, so
 * no other connection may delete it). A database not in WAL mode (in memory, or a file system without it) is asked
 * with the pragma.
 */
function commitsSeen(database: SQLite.Database): CommitsSeen {
  const pragma = database.prepare('pragma data_version').pluck();
  const asked: CommitsSeen = { version: () => pragma.get() as number, close: () => {} };
  if (database.memory || database.pragma('journal_mode', { simple: true }) !== 'wal') return asked;
  let fd: number;
  try {
    fd = fs.openSync(`${database.name}-shm`, 'r');
  } catch {
    return asked;
  }
  const seen = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  const now = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  fs.readSync(fd, seen, 0, WAL_INDEX_HEADER_BYTES, 0);
  let version = 0;
  return {
    version() {
      fs.readSync(fd, now, 0, WAL_INDEX_HEADER_BYTES, 0);
      if (!now.equals(seen)) {
        now.copy(seen);
        version += 1;
      }
      return version;
    },
    close: () => fs.closeSync(fd),
  };
}
