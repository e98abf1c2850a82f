import SQLite from 'better-sqlite3';

/**
 * Copies an SQLite app store to `destination` with SQLite's online backup API (better-sqlite3 `backup`): a
 * consistent copy page by page while DBUI keeps reading and writing it, never a half-written file copy. The source
 * is opened read-only and must exist. Answers the number of pages copied.
 */
export async function backupSqliteStore(source: string, destination: string): Promise<{ pages: number }> {
  const database = new SQLite(source, { readonly: true, fileMustExist: true });
  try {
    const { totalPages } = await database.backup(destination);
    return { pages: totalPages };
  } finally {
    database.close();
  }
}
