/*
 * The floor bench:http measures DBUI against: a minimal server, `node:http` and the same driver with a pool of 10,
 * answering every request with the same statement(s) DBUI sends for a first page, the rows wrapped as DBUI wraps
 * them and turned into JSON by JSON.stringify. No routing, no session, no validation, no logging. Started by
 * bench/http.ts as a process of its own (`node --import tsx bench/http-minimal.ts`) with its settings as JSON in
 * the MINIMAL_SERVER environment variable; it answers GET /ready once listening.
 *
 * With `fastify`, the same answer through the stack DBUI is built on (the Fastify 5 in package.json, its pino
 * logging at info to stdout, which bench/http.ts points at a log file of its own): the stack's own floor, with
 * nothing of DBUI's (no session, no rights, no statement building, no value decoding, no security headers).
 */
import http from 'node:http';
import Fastify from 'fastify';
import pg from 'pg';
import mysql from 'mysql2/promise';
import Sqlite from 'better-sqlite3';

/** What bench/http.ts hands over. */
export interface MinimalServerSettings {
  kind: 'postgres' | 'mysql' | 'sqlite';
  /** A database URL (postgres, mysql) or the SQLite file. */
  url: string;
  port: number;
  select: { text: string; values: unknown[] };
  /** The count DBUI runs beside the page when the table's row figure is exact (SQLite's demo tables). */
  count?: { text: string; values: unknown[] };
  /** Answer through Fastify with its logging on, rather than node:http. */
  fastify?: boolean;
}

type Query = (text: string, values: unknown[]) => Promise<Record<string, unknown>[]>;

function connect(settings: MinimalServerSettings): Query {
  if (settings.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: settings.url, max: 10 });
    return async (text, values) => (await pool.query(text, values)).rows as Record<string, unknown>[];
  }
  if (settings.kind === 'mysql') {
    const pool = mysql.createPool({
      uri: settings.url,
      connectionLimit: 10,
      supportBigNumbers: true,
      bigNumberStrings: true,
      dateStrings: true,
    });
    return async (text, values) => (await pool.query(text, values))[0] as Record<string, unknown>[];
  }
  const db = new Sqlite(settings.url, { readonly: true });
  return async (text, values) => db.prepare(text).all(...values) as Record<string, unknown>[];
}

const settings = JSON.parse(process.env.MINIMAL_SERVER ?? 'null') as MinimalServerSettings | null;
if (!settings)
  throw new Error('MINIMAL_SERVER (JSON settings) is not set: bench/http.ts starts this server.');
const query = connect(settings);
const { select, count } = settings;

/** The page's answer, as DBUI wraps it. */
async function answer(): Promise<unknown> {
  const [rows, counted] = await Promise.all([
    query(select.text, select.values),
    count ? query(count.text, count.values) : null,
  ]);
  return {
    isSuccess: true,
    data: { results: rows, count: Number(counted?.[0]?.n ?? 0), countIsExact: counted !== null },
    message: null,
  };
}

if (settings.fastify) {
  const app = Fastify({ logger: { level: 'info' } });
  app.get('/ready', async () => 'ready');
  app.get('/', answer);
  await app.listen({ port: settings.port, host: '127.0.0.1' });
} else {
  http
    .createServer((request, response) => {
      request.resume();
      if (request.url === '/ready') {
        response.end('ready');
        return;
      }
      answer()
        .then((body) => {
          response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
          response.end(JSON.stringify(body));
        })
        .catch((error: unknown) => {
          response.writeHead(500, { 'content-type': 'text/plain' });
          response.end(error instanceof Error ? error.message : String(error));
        });
    })
    .listen(settings.port, '127.0.0.1');
}

// A clean exit on SIGTERM, so Node writes a profile asked for with BENCH_MINIMAL_FLAGS.
process.on('SIGTERM', () => process.exit(0));
