import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/*
 * Compression of the answers the server builds (decision 0055): the page shell (index.html, filled in for every
 * answer) and the API's data, administration and description answers, in brotli or gzip as the browser asks. The web
 * app's own files are compressed once at build time (scripts/precompress.ts) and sent as they are by @fastify/static
 * (server/app.ts). Never compressed: streams (a chat reply's lines leave as they are written; an export's download
 * keeps its length), answers under COMPRESS_MIN_BYTES, and the routes outside COMPRESSED_ROUTES, which include every
 * answer carrying a secret for the caller alone (a session token, a second factor's secret, recovery codes, a
 * passkey challenge, an export's single-use link): BREACH, decision 0055.
 */

export type AnswerEncoding = 'br' | 'gzip';

/** Below this an answer goes as it is: compressing it would save about what the headers cost. */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * The API routes (Fastify's route patterns) whose answers are compressed: the data the browser shows (except exports,
 * whose status carries the single-use download link), the administration area, the API's description, metrics and
 * health. Account, setup, the human check, the chat and the export download are not (decision 0055).
 */
export const COMPRESSED_ROUTES: readonly RegExp[] = [
  /^\/api\/sql(?:\/(?!.*\/export(?:\/|$)).*)?$/,
  /^\/api\/admin\//,
  /^\/api\/docs\/(?:json|yaml)$/,
  /^\/api\/metrics$/,
  /^\/api\/health(?:\/|$)/,
];

/** The types worth compressing: JSON, the page shell, text (metrics) and YAML (the API's description). */
const COMPRESSIBLE_TYPE =
  /^(?:application\/(?:json|[\w.+-]+\+json|(?:x-)?yaml)|text\/(?:html|plain|yaml))\s*(?:;|$)/i;

const QUALITY_BR = 4;
const QUALITY_GZIP = 6;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * The encoding to answer with, from an Accept-Encoding header: brotli or gzip, whichever the browser weighs more
 * (brotli on a tie), never one it weighs 0; `*` stands for any encoding not named. Null: send the answer as it is.
 */
export function negotiateEncoding(header: string | undefined): AnswerEncoding | null {
  if (!header) return null;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...parameters] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = parameters.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name.trim(), Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (name: AnswerEncoding) => weights.get(name) ?? weights.get('*') ?? 0;
  const br = weightOf('br');
  const gz = weightOf('gzip');
  if (br <= 0 && gz <= 0) return null;
  return br >= gz ? 'br' : 'gzip';
}

/** Whether this answer is one the server compresses: its route (or the page shell), its type and its size. */
function compressible(request: FastifyRequest, reply: FastifyReply, payload: string | Buffer): boolean {
  const type = String(reply.getHeader('content-type') ?? '');
  if (!COMPRESSIBLE_TYPE.test(type)) return false;
  if (reply.hasHeader('content-encoding')) return false;
  if (reply.statusCode === 204 || reply.statusCode === 206 || reply.statusCode === 304) return false;
  // The page shell (the not-found handler's index.html): no secret, nothing of the visitor's, a new nonce each time.
  const shell = /^text\/html/i.test(type) && !request.url.startsWith('/api/');
  const route = request.routeOptions.url;
  if (!shell && !(route !== undefined && COMPRESSED_ROUTES.some((pattern) => pattern.test(route))))
    return false;
  return Buffer.byteLength(payload) >= COMPRESS_MIN_BYTES;
}

/** Adds Accept-Encoding to the answer's Vary, once. */
function varyOnEncoding(reply: FastifyReply): void {
  const vary = String(reply.getHeader('vary') ?? '');
  if (vary.split(',').some((field) => ['accept-encoding', '*'].includes(field.trim().toLowerCase()))) return;
  reply.header('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
}

/**
 * Registers the compression of the answers the app builds, as an onSend hook on `app` (before the routes, so every
 * route and the not-found handler get it). The work runs on libuv's threads, not on the event loop.
 */
export function answerCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (!compressible(request, reply, payload)) return payload;
    // The answer differs by Accept-Encoding even when this browser gets it plain: a cache must keep them apart.
    varyOnEncoding(reply);
    const encoding = negotiateEncoding(request.headers['accept-encoding']);
    if (encoding === null) return payload;
    const compressed =
      encoding === 'br'
        ? await brotli(payload, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: QUALITY_BR } })
        : await gzip(payload, { level: QUALITY_GZIP });
    reply.header('content-encoding', encoding);
    reply.header('content-length', compressed.length);
    return compressed;
  });
}
