import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** Statements kept per database: the app store's code has fewer distinct statements than this. */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * The database as Kysely's SQLite driver sees it, with each statement compiled once (issue 17 target 2). Kysely
 * prepares every query it runs again, and on the request path that compile was the costliest step of a signed-in
 * call's session read (better-sqlite3's prepare: the largest self time in a profile under load). A statement is
 * kept by its SQL text, the least recently used dropped past `size`; SQLite compiles a kept one again by itself
 * when the schema changed (a migration). One still being read (a stream over it) is busy: that query gets a fresh
 * statement.
 */
export function cachingStatements(database: SQLite.Database, size = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    prepare(text: string) {
      const kept = statements.get(text);
      if (kept && !kept.busy) {
        // Most recently used last, so the first key is the one to drop.
        statements.delete(text);
        statements.set(text, kept);
        return kept;
      }
      const statement = database.prepare(text);
      if (!kept) {
        statements.set(text, statement);
        if (statements.size > size) statements.delete(statements.keys().next().value as string);
      }
      return statement;
    },
  };
}
