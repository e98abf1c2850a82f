import { formMessages } from '#common/messages.ts';
import { EngineError } from '#server/engines/engine-error.ts';

/** better-sqlite3's errors carry SQLite's extended result code and a message naming table.column. */
export function explainSqliteError(error: unknown): EngineError | null {
  if (!(error instanceof Error) || !('code' in error) || typeof error.code !== 'string') return null;
  const columns = (error.message.split(':')[1] ?? '')
    .split(',')
    .map((part) => part.trim().split('.').pop() ?? '')
    .filter(Boolean);
  switch (error.code) {
    case 'SQLITE_CONSTRAINT_UNIQUE':
    case 'SQLITE_CONSTRAINT_PRIMARYKEY':
      return new EngineError(409, `A row with this ${columns.join(', ') || 'key'} already exists.`, {
        cause: error,
      });
    case 'SQLITE_CONSTRAINT_FOREIGNKEY':
      return new EngineError(
        409,
        'This change breaks a reference between tables: a referenced row does not exist, or other rows still use this one.',
        { cause: error },
      );
    case 'SQLITE_CONSTRAINT_NOTNULL':
      return new EngineError(400, formMessages.required(columns[0] ?? 'A column'), { cause: error });
    case 'SQLITE_CONSTRAINT_CHECK':
      return new EngineError(
        400,
        `A check of the table refused the values (${columns.join(', ') || 'check constraint'}).`,
        { cause: error },
      );
    case 'SQLITE_MISMATCH':
      return new EngineError(
        400,
        'A value does not fit its column (an integer key must be a whole number).',
        { cause: error },
      );
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return new EngineError(503, 'The database is busy with another change; try again.', { cause: error });
    case 'SQLITE_READONLY':
      return new EngineError(400, 'The database file is read-only, so rows cannot be changed.', {
        cause: error,
      });
    case 'SQLITE_CANTOPEN':
    case 'SQLITE_NOTADB':
    case 'SQLITE_CORRUPT':
      return new EngineError(503, 'The database file cannot be read right now.', { cause: error });
    default:
      if (/no such (table|column)/.test(error.message)) {
        return new EngineError(
          404,
          'The table or column was not found; it may have been changed. Reload the page.',
          { cause: error },
        );
      }
      return null;
  }
}
