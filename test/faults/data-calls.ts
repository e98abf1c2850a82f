import { encodeBody, type Row } from '#common/contract/sql.ts';
import type { TestUser } from '#server/test/factories.ts';
import type { TestApp } from '#server/test/test-app.ts';

/*
 * The data calls the fault tests make, each answered with its status, message and how long it took. Calls go
 * through the app in-process (inject), as a browser's would reach it.
 */

export interface TimedAnswer {
  status: number;
  message: string | null;
  ms: number;
  body: string;
}

/** `/api/sql/{db}/{schema}/{table}`, each segment encoded. */
export const tablePath = (database: string, schema: string, table: string) =>
  `/api/sql/${encodeURIComponent(database)}/${encodeURIComponent(schema)}/${encodeURIComponent(table)}`;

async function timed(call: () => Promise<{ statusCode: number; body: string }>): Promise<TimedAnswer> {
  const started = performance.now();
  const response = await call();
  const ms = Math.round(performance.now() - started);
  let message: string | null = null;
  try {
    message = (JSON.parse(response.body) as { message?: string | null }).message ?? null;
  } catch {
    // Not an envelope: the body itself says what happened.
  }
  return { status: response.statusCode, message, ms, body: response.body };
}

/** GET …/page/{page}. */
export const readPage = (t: TestApp, user: TestUser, table: string, page = 1, query = '') =>
  timed(() => t.app.inject({ method: 'GET', url: `${table}/page/${page}${query}`, headers: user.headers }));

/** POST … with an encoded row: an insert, or an update when the row's key exists. */
export const writeRow = (t: TestApp, user: TestUser, table: string, row: Row) =>
  timed(() =>
    t.app.inject({
      method: 'POST',
      url: table,
      headers: { ...user.headers, 'content-type': 'text/plain' },
      payload: encodeBody(row),
    }),
  );

/** GET /api/health. */
export const readHealth = (t: TestApp) => timed(() => t.app.inject({ method: 'GET', url: '/api/health' }));

/** A readable line per answer, for assertion messages. */
export const describeAnswers = (answers: TimedAnswer[]) =>
  answers.map((a) => `${a.status} in ${a.ms} ms: ${a.message ?? a.body.slice(0, 120)}`).join('\n');
