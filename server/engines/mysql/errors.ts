import { databaseUnreachable, EngineError } from '#server/engines/engine-error.ts';

/*
 * mysql2 errors carry the server's errno and message (or a Node socket code). Messages quote names and values, never
 * SQL; we take the column, key or value out of them and answer in the spec's words.
 */

interface DriverError {
  errno?: unknown;
  code?: unknown;
  sqlMessage?: unknown;
  message?: unknown;
  errors?: unknown;
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
  'PROTOCOL_CONNECTION_LOST',
]);
/** Access denied (1044, 1045), unknown database (1049), too many connections (1040), host blocked or not allowed. */
const UNREACHABLE_ERRNOS = new Set([1040, 1044, 1045, 1049, 1129, 1130]);
/** MariaDB max_statement_time (1969), MySQL max_execution_time (3024). */
const TIMEOUT_ERRNOS = new Set([1969, 3024]);

/** Where to find the statement timeout and the database's name for the messages. */
export interface ErrorContext {
  name: string;
  statementTimeoutMs: number;
}

/** A MySQL or MariaDB error as a message a person can act on, or null when it is not one we know. */
export function explainError(error: unknown, context: ErrorContext): EngineError | null {
  if (typeof error !== 'object' || error === null) return null;
  const driver = error as DriverError;
  const errno = typeof driver.errno === 'number' ? driver.errno : null;
  const code = typeof driver.code === 'string' ? driver.code : null;
  const message = typeof driver.sqlMessage === 'string' ? driver.sqlMessage : '';
  const explain = (status: EngineError['statusCode'], text: string) =>
    new EngineError(status, text, { cause: error });

  if ((errno !== null && TIMEOUT_ERRNOS.has(errno)) || code === 'PROTOCOL_SEQUENCE_TIMEOUT') {
    return explain(
      504,
      `The database did not answer within ${secondsText(context.statementTimeoutMs)}; narrow the search or try again.`,
    );
  }
  if (
    (errno !== null && UNREACHABLE_ERRNOS.has(errno)) ||
    (code !== null && UNREACHABLE_CODES.has(code)) ||
    isUnreachable(driver)
  ) {
    return databaseUnreachable(context.name, { cause: error });
  }
  switch (errno) {
    case 1062: {
      // Duplicate entry 'x' for key 'name' (MySQL 8: 'table.name').
      const match = /Duplicate entry '(.*)' for key '(.+)'/s.exec(message);
      if (!match) return explain(409, 'A row with the same unique value already exists.');
      const key = (match[2] ?? '').replace(/^.*\./, '');
      const where = key === 'PRIMARY' ? 'the primary key' : `the unique key ${key}`;
      return explain(409, `'${truncate(match[1] ?? '')}' already exists in ${where}.`);
    }
    case 1451: {
      // Cannot delete or update a parent row: a foreign key constraint fails (`db`.`child`, CONSTRAINT `fk` …).
      const match = /\(`[^`]*`\.`([^`]*)`, CONSTRAINT `([^`]*)`/.exec(message);
      const child = match?.[1];
      return explain(
        409,
        child
          ? `This row is still referenced by rows of ${child} (${match[2]}); change or delete those first.`
          : 'This row is still referenced by other rows; change or delete those first.',
      );
    }
    case 1452: {
      // Cannot add or update a child row: … CONSTRAINT `fk` FOREIGN KEY (`col`) REFERENCES `parent` (`pcol`)
      const match = /CONSTRAINT `([^`]*)` FOREIGN KEY \(([^)]*)\) REFERENCES `([^`]*)` \(([^)]*)\)/.exec(
        message,
      );
      if (!match) return explain(400, 'A referenced row does not exist.');
      const columns = names(match[2] ?? '');
      const referenced = names(match[4] ?? '');
      const as = referenced === columns ? '' : ` (as ${referenced})`;
      return explain(400, `The ${columns} given does not exist in ${match[3]}${as}.`);
    }
    case 1048: // Column 'x' cannot be null
    case 1364: // Field 'x' doesn't have a default value
      return columnIn(message)
        ? explain(400, `${columnIn(message)} is required.`)
        : explain(400, 'A required value is missing.');
    case 1406: {
      // Data too long for column 'x' at row 1
      const column = columnIn(message);
      return explain(400, column ? `${column} is too long.` : 'A value is too long.');
    }
    case 1264: {
      // Out of range value for column 'x' at row 1
      const column = columnIn(message);
      return explain(400, column ? `${column} is out of range.` : 'A number is out of range.');
    }
    case 1265: {
      // Data truncated for column 'x' at row 1 (e.g. a value not in an ENUM)
      const column = columnIn(message);
      return explain(
        400,
        column ? `${column}: the value does not fit this column.` : 'A value does not fit its column.',
      );
    }
    case 1292:
    case 1366:
    case 1411: {
      // Incorrect integer value: 'abc' for column `db`.`t`.`col` at row 1 (MySQL: for column 'col')
      const match =
        /Incorrect (\w+) value: '(.*)' for column (?:`[^`]*`\.`[^`]*`\.`([^`]*)`|'([^']*)')/s.exec(message);
      if (match) {
        return explain(
          400,
          `${match[3] ?? match[4]}: '${truncate(match[2] ?? '')}' is not a valid ${match[1]?.toLowerCase()}.`,
        );
      }
      const value = /value: '(.*)'/s.exec(message)?.[1];
      return explain(
        400,
        value === undefined ? 'A value is not valid.' : `'${truncate(value)}' is not a valid value.`,
      );
    }
    case 1267: // Illegal mix of collations: a 4-byte character (emoji) compared with a utf8mb3 column
    case 1270:
    case 1271:
      return explain(
        400,
        'A value has characters this column cannot hold (such as emoji in a column whose character set is utf8mb3).',
      );
    case 3140: // MySQL: Invalid JSON text
      return explain(400, 'A value is not valid JSON.');
    case 3819: // MySQL: Check constraint 'x' is violated.
    case 4025: {
      // MariaDB: CONSTRAINT `x` failed for `db`.`t` (a JSON column's check is named after the column)
      const name = /onstraint [`']([^`']+)[`']/.exec(message)?.[1];
      return explain(
        400,
        name ? `A value breaks the check ${name}.` : 'A value breaks a check of this table.',
      );
    }
    default:
      return null;
  }
}

/** `col` or 'col' quoted in a message: the first one after "column" or "Field". */
function columnIn(message: string): string | null {
  const match = /(?:column|field) (?:`[^`]*`\.`[^`]*`\.`([^`]*)`|'([^']*)'|`([^`]*)`)/i.exec(message);
  return match ? (match[1] ?? match[2] ?? match[3] ?? null) : null;
}

/** `a`, `b` → a, b */
const names = (list: string) =>
  list
    .replace(/`/g, '')
    .split(/\s*,\s*/)
    .join(', ');

function isUnreachable(error: DriverError): boolean {
  // Node's connection attempts to several addresses fail with an AggregateError of socket errors.
  if (!Array.isArray(error.errors)) return false;
  return error.errors.some((inner: unknown) => {
    const code = typeof inner === 'object' && inner !== null && 'code' in inner ? inner.code : null;
    return typeof code === 'string' && UNREACHABLE_CODES.has(code);
  });
}

function secondsText(ms: number): string {
  const seconds = Math.round(ms / 100) / 10;
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

const truncate = (text: string) => (text.length > 60 ? `${text.slice(0, 60)}…` : text);
