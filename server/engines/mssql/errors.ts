import * as tarn from 'tarn';
import * as tedious from 'tedious';
import { formMessages } from '#common/messages.ts';
import { databaseBusy, databaseUnreachable, EngineError } from '#server/engines/engine-error.ts';

/*
 * tedious errors: a RequestError carries the server's error `number` and message (in English: connect.ts sets the
 * session language), or a `code` of its own (ETIMEOUT when the request timeout cancelled the statement, ECANCEL);
 * a ConnectionError carries only a code (ESOCKET, ELOGIN, ETIMEOUT…). Several errors of one statement arrive as an
 * AggregateError, which Kysely's dialect rethrows as a plain array. Messages quote names and values, never SQL; we
 * take the constraint, table, column or value out of them and answer in the spec's words. Database and server
 * names in the messages are never repeated.
 */

/** Where to find the statement timeout and the database's name for the messages. */
export interface ErrorContext {
  name: string;
  statementTimeoutMs: number;
}

interface DriverError {
  number?: unknown;
  code?: unknown;
  message?: unknown;
}

/** Socket and login failures: the database cannot be reached (or will not let us in). */
const UNREACHABLE_CODES = new Set([
  'ESOCKET',
  'ELOGIN',
  'EFEDAUTH',
  'EINSTLOOKUP',
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECLOSE',
]);
/** Cannot open database (4060), login failed (18456, 18452), database in transition or offline (952, 942, 40613). */
const UNREACHABLE_NUMBERS = new Set([4060, 18456, 18452, 952, 942, 40613]);

/** A SQL Server error as a message a person can act on, or null when it is not one we know. */
export function explainError(error: unknown, context: ErrorContext): EngineError | null {
  for (const candidate of flatten(error)) {
    const explained = explainOne(candidate, error, context);
    if (explained) return explained;
  }
  return null;
}

/** The errors inside an array (Kysely's rethrow of tedious's AggregateError), an AggregateError or a cause. */
function flatten(error: unknown): unknown[] {
  if (Array.isArray(error)) return error.flatMap(flatten);
  if (error instanceof AggregateError) return [error, ...error.errors.flatMap(flatten)];
  return [error];
}

function explainOne(error: unknown, original: unknown, context: ErrorContext): EngineError | null {
  if (typeof error !== 'object' || error === null) return null;
  const driver = error as DriverError;
  const number = typeof driver.number === 'number' ? driver.number : null;
  const code = typeof driver.code === 'string' ? driver.code : null;
  const message = typeof driver.message === 'string' ? driver.message : '';
  const explain = (status: EngineError['statusCode'], text: string) =>
    new EngineError(status, text, { cause: original });
  const timedOut = () =>
    explain(
      504,
      `The database did not answer within ${secondsText(context.statementTimeoutMs)}; narrow the search or try again.`,
    );
  const unreachable = () => databaseUnreachable(context.name, { cause: original });

  if (error instanceof tedious.ConnectionError) return unreachable();
  // tarn's acquire timeout: every connection stayed taken until the call's budget ran out (a connection that
  // cannot be made fails at once instead: connect.ts propagates create errors).
  if (error instanceof tarn.TimeoutError) return databaseBusy(context.name, { cause: original });
  if (code === 'ETIMEOUT' || code === 'ECANCEL') return timedOut();
  if (
    (code !== null && UNREACHABLE_CODES.has(code)) ||
    (number !== null && UNREACHABLE_NUMBERS.has(number))
  ) {
    return unreachable();
  }
  if (/^The connection ended without ever completing the connection$/.test(message)) return unreachable();
  if (number === null) return null;

  switch (number) {
    case 2627: {
      // Violation of PRIMARY KEY constraint 'PK_Artist'. Cannot insert duplicate key in object 'dbo.Artist'.
      // The duplicate key value is (1).
      const constraint = /constraint '([^']+)'/.exec(message)?.[1];
      return explain(409, duplicateText(constraint, duplicateValue(message)));
    }
    case 2601: {
      // Cannot insert duplicate key row in object 'dbo.T' with unique index 'IX_T'. The duplicate key value is (x).
      const index = /unique index '([^']+)'/.exec(message)?.[1];
      return explain(409, duplicateText(index, duplicateValue(message)));
    }
    case 547:
      return explain547(message, explain);
    case 515: {
      // Cannot insert the value NULL into column 'Name', table 'db.dbo.T'; column does not allow nulls. INSERT fails.
      const column = /into column '([^']+)'/.exec(message)?.[1];
      return explain(400, column ? formMessages.required(column) : 'A required value is missing.');
    }
    case 2628: {
      // String or binary data would be truncated in table 'db.dbo.T', column 'Name'. Truncated value: 'abc'.
      const column = /, column '([^']+)'/.exec(message)?.[1];
      return explain(
        400,
        column ? `${column} is too long for its column.` : 'A value is too long for its column.',
      );
    }
    case 8152: // String or binary data would be truncated. (before SQL Server 2019: no column named)
      return explain(400, 'A value is too long for its column.');
    case 245:
    case 8114:
    case 8169: {
      // Conversion failed when converting the nvarchar value 'abc' to data type int.
      // Error converting data type nvarchar to numeric. / … from a character string to uniqueidentifier.
      const match = /value '(.*)' to data type (\w+)/s.exec(message);
      if (match) return explain(400, `'${truncate(match[1] ?? '')}' is not a valid ${match[2]}.`);
      const type = /to (?:data type )?(\w+)\.?$/.exec(message.trim())?.[1];
      return explain(400, type ? `A value is not a valid ${type}.` : 'A value is not valid for its column.');
    }
    case 220:
    case 232:
    case 248:
    case 8115: {
      // Arithmetic overflow error for data type tinyint, value = 300. / … converting numeric to data type numeric.
      // The conversion of the nvarchar value '99999999999' overflowed an int column.
      const forType = /for (?:data )?type (\w+), value = (.*)\./.exec(message);
      if (forType) return explain(400, `${truncate(forType[2] ?? '')} is out of range for ${forType[1]}.`);
      const overflowed = /value '(.*)' overflowed an? (\w+) column/s.exec(message);
      if (overflowed)
        return explain(400, `${truncate(overflowed[1] ?? '')} is out of range for ${overflowed[2]}.`);
      const type = /to data type (\w+)/.exec(message)?.[1];
      return explain(
        400,
        type ? `A number is out of range for ${type}.` : 'A number is out of range for its column.',
      );
    }
    case 241: // Conversion failed when converting date and/or time from character string.
    case 295:
      return explain(400, 'A date or time is not valid: use YYYY-MM-DD, HH:MM:SS or YYYY-MM-DDTHH:MM:SS.');
    case 242: // The conversion of a nvarchar data type to a datetime data type resulted in an out-of-range value.
    case 517:
      return explain(400, 'A date or time is out of the range its column can hold.');
    case 544: {
      // Cannot insert explicit value for identity column in table 'T' when IDENTITY_INSERT is set to OFF.
      const tableName = /in table '([^']+)'/.exec(message)?.[1];
      return explain(
        400,
        `The identity column${tableName ? ` of ${tableName}` : ''} is numbered by the database and cannot be set.`,
      );
    }
    case 8102: {
      // Cannot update identity column 'Id'.
      const column = /column '([^']+)'/.exec(message)?.[1];
      return explain(
        400,
        `${column ?? 'The identity column'} is numbered by the database and cannot be changed.`,
      );
    }
    case 271: {
      // The column "Total" cannot be modified because it is either a computed column or is the result of a UNION.
      const column = /column "([^"]+)"/.exec(message)?.[1];
      return explain(400, `${column ?? 'A computed column'} is computed by the database and cannot be set.`);
    }
    case 273: // Cannot insert an explicit value into a timestamp column.
    case 13536: // Cannot insert an explicit value into a GENERATED ALWAYS column in table 'T'.
    case 13537: // … GENERATED ALWAYS column … (update)
      return explain(
        400,
        'A column that the database fills in (rowversion or a period column) cannot be set.',
      );
    case 229:
    case 230: {
      // The SELECT permission was denied on the object 'T', database 'db', schema 'dbo'.
      const match = /The (\w+) permission was denied on the (?:object|column) '([^']+)'/.exec(message);
      return explain(
        403,
        match
          ? `The database does not allow ${match[1]} on ${match[2]} for this connection.`
          : 'The database refused this: permission denied.',
      );
    }
    case 208: {
      // Invalid object name 'dbo.T'.
      const name = /name '([^']+)'/.exec(message)?.[1];
      return explain(
        404,
        `${name ? `The table ${name}` : 'The table'} was not found; it may have been dropped. Reload the page.`,
      );
    }
    case 207: {
      // Invalid column name 'X'.
      const name = /name '([^']+)'/.exec(message)?.[1];
      return explain(
        404,
        `${name ? `The column ${name}` : 'A column'} was not found; the table may have changed. Reload the page.`,
      );
    }
    case 1205: // chosen as the deadlock victim
    case 3960: // snapshot isolation update conflict
      return explain(409, 'Another change to the same rows got in the way; try again.');
    case 1222: // Lock request time out period exceeded.
      return timedOut();
    default:
      return null;
  }
}

type Explain = (status: EngineError['statusCode'], text: string) => EngineError;

/**
 * 547 covers three conflicts:
 * - The INSERT statement conflicted with the FOREIGN KEY constraint "FK_AlbumArtistId". The conflict occurred in
 *   database "db", table "dbo.Artist", column 'ArtistId'. (the referenced table and column)
 * - The DELETE statement conflicted with the REFERENCE constraint "FK_AlbumArtistId". … table "dbo.Album", column
 *   'ArtistId'. (the referencing table)
 * - The INSERT statement conflicted with the CHECK constraint "CK_T_Price". … table "dbo.T", column 'Price'.
 */
function explain547(message: string, explain: Explain): EngineError {
  const match =
    /conflicted with the (FOREIGN KEY(?: SAME TABLE)?|REFERENCE|CHECK) constraint "([^"]+)"\..*?table "([^"]+)"(?:, column '([^']+)')?/s.exec(
      message,
    );
  if (!match) return explain(409, 'The change conflicts with a constraint of this table.');
  const [, kind = '', constraint = '', qualified = '', column] = match;
  const tableName = qualified.slice(qualified.indexOf('.') + 1);
  if (kind.startsWith('FOREIGN KEY')) {
    return explain(400, `The ${column ?? 'value'} given does not exist in ${tableName} (${constraint}).`);
  }
  if (kind === 'REFERENCE') {
    return explain(
      409,
      `This row is still referenced by rows of ${tableName} (${constraint}); change or delete those first.`,
    );
  }
  return explain(400, `${column ? `${column}: the value` : 'A value'} breaks the check ${constraint}.`);
}

/** "The duplicate key value is (1, abc)." → "(1, abc)" */
const duplicateValue = (message: string) =>
  /The duplicate key value is (\(.*\))\.?$/s.exec(message.trim())?.[1];

function duplicateText(name: string | undefined, value: string | undefined): string {
  const where = name ? ` (${name})` : '';
  return value
    ? `${truncate(value)} already exists${where}: the value must be unique.`
    : `A row with the same unique value already exists${where}.`;
}

function secondsText(ms: number): string {
  const seconds = Math.round(ms / 100) / 10;
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

const truncate = (text: string) => (text.length > 60 ? `${text.slice(0, 60)}…` : text);
