/*
 * Failures that say the app store cannot be written at all — its disk is full, its files or database are
 * read-only, its storage fails — as opposed to a write that broke a rule. A call that needed the write answers 503
 * with a plain sentence (plugins/error-envelope.ts), and reads, which need no write, go on (decision 0013).
 */

/** SQLite result codes (better-sqlite3 names them, extended codes included) of storage that cannot take a write. */
const SQLITE_CODES = /^SQLITE_(FULL|READONLY|IOERR|CANTOPEN)/;
/** PostgreSQL SQLSTATEs: disk_full, insufficient_resources, read_only_sql_transaction, io_error. */
const POSTGRES_CODES = new Set(['53100', '53000', '25006', '58030']);

/** Whether an error from the app store means it cannot be written (full, read-only, failing storage). */
export function isUnwritable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (SQLITE_CODES.test(code) || POSTGRES_CODES.has(code));
}
