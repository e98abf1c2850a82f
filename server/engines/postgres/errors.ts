import { databaseUnreachable, EngineError } from '#server/engines/engine-error.ts';

/*
 * PostgreSQL errors as messages a person can act on. The server's fields (code = SQLSTATE, detail, column,
 * constraint) say which rule failed; the messages repeat names and values from them, never SQL.
 */

interface PostgresErrorFields {
  code?: unknown;
  message?: unknown;
  detail?: unknown;
  column?: unknown;
  constraint?: unknown;
  table?: unknown;
  errors?: unknown;
}

/** What explainError needs to know about the database it speaks for. */
export interface ErrorContext {
  /** The registered database's name, shown when it is unreachable. */
  name: string;
  statementTimeoutMs: number;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;
const shorten = (value: string) => (value.length > 60 ? `${value.slice(0, 60)}…` : value);

/** Network failures reaching the server: no connection, no such host, no answer. */
const unreachableCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
  'EAI_AGAIN',
]);
/** Server answers that mean we cannot work with it now: bad login, no such database, shutting down, full. */
const unavailableStates = new Set(['28P01', '28000', '3D000', '57P01', '57P02', '57P03', '53300']);
/** pg and its pool report a connection that could not be made (in time) without a code. */
const unreachableMessage =
  /timeout exceeded when trying to connect|connection terminated|connection timeout/i;

/** A pg/network error as an EngineError, or null when it is not one we recognise. */
export function explainError(error: unknown, context: ErrorContext): EngineError | null {
  if (!(error instanceof Error)) return null;
  const fields = error as PostgresErrorFields;
  const code = text(fields.code);
  const options = { cause: error };

  if (isUnreachable(error)) return databaseUnreachable(context.name, options);
  switch (code) {
    case '23505':
      return new EngineError(409, uniqueMessage(fields), options);
    case '23503':
      return foreignKeyError(fields, options);
    case '23502': {
      const column = text(fields.column);
      return new EngineError(
        400,
        column ? `${column} is required.` : 'A required value is missing.',
        options,
      );
    }
    case '22001': {
      // PostgreSQL names the type ("character varying(10)") but not the column.
      const limit = /\((\d+)\)/.exec(text(fields.message) ?? '')?.[1];
      return new EngineError(
        400,
        limit ? `A value cannot be more than ${limit} characters.` : 'A value is too long for its column.',
        options,
      );
    }
    case '22P02':
    case '22007':
    case '22008':
    case '22003':
    case '22021':
    case '22P05':
      return new EngineError(400, badValueMessage(code, fields), options);
    case '23514': {
      const constraint = text(fields.constraint);
      return new EngineError(
        400,
        constraint ? `The row breaks the rule ${constraint}.` : 'The row breaks a rule of the table.',
        options,
      );
    }
    case '428C9': {
      const column = /column "([^"]+)"/.exec(text(fields.message) ?? '')?.[1];
      return new EngineError(
        400,
        `${column ?? 'This column'} is set by the database and cannot be given a value.`,
        options,
      );
    }
    case '57014':
      if (!/statement timeout/i.test(text(fields.message) ?? '')) return null;
      return new EngineError(
        504,
        `The database did not answer within ${seconds(context.statementTimeoutMs)}; narrow the search or try again.`,
        options,
      );
    case '40001':
    case '40P01':
      return new EngineError(409, 'Someone else changed these rows at the same time; try again.', options);
    case '42501':
      return new EngineError(403, 'The database does not allow this for the account DBUI uses.', options);
    case '25006':
      return new EngineError(403, 'The database is read-only.', options);
  }
  return null;
}

function isUnreachable(error: Error): boolean {
  const fields = error as PostgresErrorFields;
  const code = text(fields.code);
  if (code && (unreachableCodes.has(code) || unavailableStates.has(code))) return true;
  // Node reports a refused connection to every address of a host as an AggregateError of per-address errors.
  if (
    Array.isArray(fields.errors) &&
    fields.errors.some((inner) => inner instanceof Error && isUnreachable(inner))
  )
    return true;
  return code === undefined && unreachableMessage.test(error.message);
}

/** "Key (email)=(a@b.c) already exists." → "A row with email a@b.c already exists." */
function uniqueMessage(fields: PostgresErrorFields): string {
  const key = parseKey(text(fields.detail));
  if (key) return `A row with ${key.pairs} already exists.`;
  const constraint = text(fields.constraint);
  return constraint
    ? `A row with the same ${constraint} already exists.`
    : 'A row with the same key already exists.';
}

function foreignKeyError(fields: PostgresErrorFields, options: { cause: unknown }): EngineError {
  const detail = text(fields.detail);
  const key = parseKey(detail);
  // Deleting (or re-keying) a row that other rows use: 'Key (x)=(1) is still referenced from table "z".'
  const user = /is still referenced from table "([^"]+)"/.exec(detail ?? '')?.[1];
  if (user)
    return new EngineError(409, `This row is still used by ${user}; delete those rows first.`, options);
  // Writing a reference to a missing row: 'Key (x)=(99) is not present in table "z".'
  const target = /is not present in table "([^"]+)"/.exec(detail ?? '')?.[1];
  if (key && target) return new EngineError(409, `${key.pairs} does not exist in ${target}.`, options);
  const constraint = text(fields.constraint);
  return new EngineError(
    409,
    constraint
      ? `The row does not fit the reference ${constraint}.`
      : 'The row does not fit a reference to another table.',
    options,
  );
}

/** PostgreSQL's "Key (a, b)=(1, 2)" as "a 1, b 2" (or "a, b (1, 2)" when the values contain commas). */
function parseKey(detail: string | undefined): { pairs: string } | null {
  const parts = /^Key \((.+?)\)=\((.*)\)(?: already exists| is (?:not present|still referenced))/s.exec(
    detail ?? '',
  );
  if (!parts) return null;
  const columns = (parts[1] ?? '').split(', ');
  const values = (parts[2] ?? '').split(', ');
  if (columns.length === values.length) {
    return { pairs: columns.map((column, i) => `${column} ${shorten(values[i] ?? '')}`).join(', ') };
  }
  return { pairs: `${columns.join(', ')} (${shorten(parts[2] ?? '')})` };
}

/** 'invalid input syntax for type integer: "abc"' → '"abc" is not a valid integer.' */
function badValueMessage(code: string, fields: PostgresErrorFields): string {
  const message = text(fields.message) ?? '';
  const column = text(fields.column);
  const prefix = column ? `${column}: ` : '';
  const syntax = /invalid input syntax for type ([\w ]+?): "(.*)"$/s.exec(message);
  if (syntax) return `${prefix}"${shorten(syntax[2] ?? '')}" is not a valid ${syntax[1] ?? 'value'}.`;
  const enumValue = /invalid input value for enum ([\w.]+): "(.*)"$/s.exec(message);
  if (enumValue)
    return `${prefix}"${shorten(enumValue[2] ?? '')}" is not one of the values of ${enumValue[1] ?? 'the list'}.`;
  const range = /value "(.*)" is out of range for type ([\w ]+)$/s.exec(message);
  if (range) return `${prefix}${shorten(range[1] ?? '')} is out of range for ${range[2] ?? 'its type'}.`;
  if (code === '22003') {
    // "numeric field overflow" comes with "A field with precision 5, scale 2 must round to … less than 10^3."
    const digits = /precision (\d+), scale (\d+)/.exec(text(fields.detail) ?? '');
    if (digits) {
      const whole = Number(digits[1]) - Number(digits[2]);
      return `${prefix}A number has more than ${whole} digits before the point.`;
    }
    return `${prefix}A number is out of range for its column.`;
  }
  const dateField = /date\/time field value out of range: "(.*)"$/s.exec(message);
  if (dateField) return `${prefix}"${shorten(dateField[1] ?? '')}" is not a valid date or time.`;
  if (code === '22021') return `${prefix}A value contains a character the database cannot store.`;
  return `${prefix}A value is not valid for its column.`;
}

const seconds = (ms: number) => {
  const value = Math.round(ms / 100) / 10;
  return `${value} second${value === 1 ? '' : 's'}`;
};
