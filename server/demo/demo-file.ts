// Whether the embedded demo database is there and finished: what every start asks, apart from the seeding code
// (demo-database.ts, with its data generators and PNG encoder), which only a first start loads.
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { DEMO_SCHEMA_VERSION } from './demo-schema.ts';

/** `PRAGMA application_id` of a demo file ('DBUI' in ASCII): with the user_version, the marker of a finished seed. */
export const DEMO_APPLICATION_ID = 0x44425549;

/** What is at `file`: nothing; a finished demo database (the marker pragmas that seeding sets last); something to
 * rebuild (an older demo, an empty database, or not a database at all); or somebody else's database. */
export function demoFileState(file: string): 'missing' | 'finished' | 'rebuild' | 'foreign' {
  if (!existsSync(file)) return 'missing';
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { fileMustExist: true });
    const applicationId = db.pragma('application_id', { simple: true });
    if (applicationId === DEMO_APPLICATION_ID) {
      return db.pragma('user_version', { simple: true }) === DEMO_SCHEMA_VERSION ? 'finished' : 'rebuild';
    }
    const tables = db.prepare('SELECT COUNT(*) FROM sqlite_master').pluck().get();
    return tables === 0 ? 'rebuild' : 'foreign';
  } catch {
    // Not a database at all (for example an empty or truncated file): rebuild it.
    return 'rebuild';
  } finally {
    db?.close();
  }
}
