/** A failure of a database call that a person can act on: the status to answer and a message without SQL. */
export class EngineError extends Error {
  constructor(
    readonly statusCode: 400 | 403 | 404 | 409 | 503 | 504,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The referenced table, column or database is not one the catalog knows (or the caller may not see). */
export const notFound = (what: string) => new EngineError(404, `${what} was not found.`);

/** The input does not fit: say what to fix. */
export const badInput = (message: string) => new EngineError(400, message);
