/** A failure of a database call that a person can act on: the status to answer and a message without SQL. */
export class EngineError extends Error {
  /** What the failure's envelope carries as its data (a 409 of a row changed since: the row as it is now), else
   * nothing (data null). */
  readonly data: unknown;
  constructor(
    readonly statusCode: 400 | 403 | 404 | 409 | 503 | 504,
    message: string,
    options?: { cause?: unknown; data?: unknown },
  ) {
    super(message, options);
    this.data = options?.data ?? null;
  }
}

/** The referenced table, column or database is not one the catalog knows (or the caller may not see). */
export const notFound = (what: string) => new EngineError(404, `${what} was not found.`);

/** The input does not fit: say what to fix. */
export const badInput = (message: string) => new EngineError(400, message);

/*
 * The database cannot serve the call right now (503), in three distinct cases, so the message is true:
 * unreachable (no connection can be made: refused, unknown host, login failed), busy (it answers, but other work
 * held it or every pooled connection until this call's deadline: locked rows, a full pool), or not answering
 * (connected, and nothing came back before the deadline: a frozen or overwhelmed server).
 */

/** Why a database cannot serve a call right now. */
export type Unavailability = 'unreachable' | 'busy' | 'not answering';

const unavailableMessages: Record<Unavailability, (name: string) => string> = {
  unreachable: (name) => `The database ${name} is not reachable right now.`,
  busy: (name) => `The database ${name} is busy right now; try again in a moment.`,
  'not answering': (name) => `The database ${name} is not answering right now; try again in a moment.`,
};

/** A 503 of the database: which of the three cases it is, and the sentence for it. */
export class DatabaseUnavailable extends EngineError {
  constructor(
    readonly why: Unavailability,
    name: string,
    options?: { cause?: unknown },
  ) {
    super(503, unavailableMessages[why](name), options);
  }
}

/** No connection to the database can be made. */
export const databaseUnreachable = (name: string, options?: { cause?: unknown }) =>
  new DatabaseUnavailable('unreachable', name, options);

/** The database answers others, but this call's deadline passed waiting for a connection or for other sessions. */
export const databaseBusy = (name: string, options?: { cause?: unknown }) =>
  new DatabaseUnavailable('busy', name, options);

/** Nothing came back from the database before this call's deadline. */
export const databaseNotAnswering = (name: string, options?: { cause?: unknown }) =>
  new DatabaseUnavailable('not answering', name, options);

/**
 * A scanning filter's statement stopped by the database at the scan budget (decision 0061): the adapter's scanQuery
 * throws it, with the rows the engine says it examined when it says so; the generic engine answers it as a 504 that
 * names the scanning conditions and what would make them fast.
 */
export class ScanStopped extends Error {
  constructor(
    readonly rowsExamined: number | null,
    options?: { cause?: unknown },
  ) {
    super('The scan budget ran out.', options);
  }
}
