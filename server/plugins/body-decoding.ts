import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ROW_CUT_KEY } from '#common/contract/sql.ts';
import { cutMessages } from '#common/messages.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import { jsonSyntaxProblem, refuseDeepJson } from '#server/plugins/json-bodies.ts';

/*
 * Filter and row bodies (spec 000 §7): JSON, then encodeURIComponent, then base64, sent as the body with
 * Content-Type text/plain. Also accepted with application/json: that same string as a JSON string, or the plain
 * JSON object for clients that do not encode. Each way a body can be malformed answers 400 saying which step failed
 * and what to send instead; the route's zod schema then checks the values.
 */

/** Which body a route takes: the messages name it. `query`: the filter calls' body (issue 35), an object holding a
 * filter document (`{ "where": … }`); `view`: a saved view's (issue 36), which holds one too. */
export type EncodedBodyKind = 'filter' | 'row' | 'query' | 'view';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on routes whose body is an encoded filter or row (see acceptEncodedBodies). */
    encodedBody?: EncodedBodyKind;
  }
}

const STANDARD_BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const URL_SAFE_BASE64 = /^[A-Za-z0-9_-]*={0,2}$/;
/** What encodeURIComponent leaves as it is, plus the % of its escapes. */
const URI_ENCODED = /^[A-Za-z0-9\-_.!~*'()%]*$/;

const example: Record<EncodedBodyKind, string> = {
  filter: '{"Name":"Ab"}',
  row: '{"Name":"New name"}',
  query: '{"where":{"column":"Name","op":"startsWith","value":"Ab"}}',
  view: '{"Id":0,"name":"Recent","columns":[{"name":"Name"}]}',
};

function how(kind: EncodedBodyKind): string {
  return (
    `Send base64(encodeURIComponent(JSON.stringify(${kind}))) with Content-Type text/plain, ` +
    `or the ${kind} as a JSON object with Content-Type application/json.`
  );
}

const refuse = (message: string) => new ApiError(400, message);

/** The spec's encoded string → the value inside it. Throws a 400 naming the step that failed. */
export function decodeEncodedString(text: string, kind: EncodedBodyKind): unknown {
  const compact = text.replace(/\s+/g, '');
  if (compact === '') throw refuse(`The ${kind} is empty. ${how(kind)}`);

  const alphabet = STANDARD_BASE64.test(compact) || URL_SAFE_BASE64.test(compact);
  const unpadded = compact.replace(/=+$/, '');
  if (!alphabet || unpadded.length % 4 === 1 || (compact.includes('=') && compact.length % 4 !== 0)) {
    const bad = [...compact].findIndex((c) => !/[A-Za-z0-9+/_=-]/.test(c));
    const where =
      bad >= 0
        ? `: "${compact[bad]}" at position ${bad + 1} is not a base64 character`
        : ': its length or padding is wrong';
    throw refuse(`The ${kind} is not valid base64${where}. ${how(kind)}`);
  }

  const uriText = Buffer.from(
    unpadded,
    compact.includes('-') || compact.includes('_') ? 'base64url' : 'base64',
  ).toString('latin1');
  if (!URI_ENCODED.test(uriText)) {
    throw refuse(
      `The ${kind} decodes from base64, but what it holds is not URL-encoded text (encodeURIComponent): ` +
        `it contains characters encodeURIComponent never leaves as they are. ${how(kind)}`,
    );
  }
  let json: string;
  try {
    json = decodeURIComponent(uriText);
  } catch {
    const broken = /%(?![0-9A-Fa-f]{2})/.exec(uriText);
    const detail = broken
      ? `"%" at position ${broken.index + 1} is not followed by two hexadecimal digits`
      : 'its %-escapes are not valid UTF-8';
    throw refuse(`The ${kind}'s URL encoding is broken: ${detail}. ${how(kind)}`);
  }
  return parseJson(json, kind, `The ${kind} (after base64 and URL decoding)`);
}

/** JSON.parse that refuses a `__proto__` key at any depth (as Fastify's own parser does), after refusing text that
 * nests too deeply for the reviver's recursion. A reviver takes JSON.parse off its fast path (a third of a page
 * call's body decoding, issue 17), so it runs only when the text could hold that key: spelled out, or escaped
 * (only a \u escape makes letters or `_`). */
function parse(text: string): unknown {
  refuseDeepJson(text);
  if (!text.includes('__proto__') && !text.includes('\\u')) return JSON.parse(text) as unknown;
  return JSON.parse(text, (key, value: unknown) => {
    if (key === '__proto__') throw refuse('__proto__ is not a column name.');
    return value;
  }) as unknown;
}

function parseJson(text: string, kind: EncodedBodyKind, what: string): unknown {
  try {
    return parse(text);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    // Where it went wrong, in our words: the engine's own message is not passed on.
    const problem = jsonSyntaxProblem(error);
    throw refuse(`${what} is not valid JSON${problem ? ` (${problem})` : ''}. ${how(kind)}`);
  }
}

function plainJson(text: string): unknown {
  try {
    return parse(text);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw refuse('The body is not valid JSON.');
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** The decoded value must be an object of column name → value (a query: an object of its parts). */
export function requireObject(value: unknown, kind: EncodedBodyKind): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    if (kind === 'query' || kind === 'view')
      throw refuse(`The ${kind} must be a JSON object like ${example[kind]}, not ${describe(value)}.`);
    throw refuse(
      `The ${kind} must be a JSON object of column name to ${kind === 'filter' ? 'search term' : 'value'}, ` +
        `like ${example[kind]}, not ${describe(value)}.`,
    );
  }
  return value as Record<string, unknown>;
}

/** A row sent back with the marks of its cut values (docs/decisions/0066-cut-values.md: an object under ROW_CUT_KEY,
 * which no column's value can be) is refused here, before the schema's "not a value" says less. */
function refuseCutMarks(row: Record<string, unknown>, kind: EncodedBodyKind): Record<string, unknown> {
  const marks = kind === 'row' ? row[ROW_CUT_KEY] : undefined;
  if (typeof marks === 'object' && marks !== null) throw refuse(cutMessages.cutRowSent(ROW_CUT_KEY));
  return row;
}

/** Decodes a body in any of the three accepted forms, as the content type says it was sent. */
export function decodeBody(
  raw: string,
  contentType: 'text' | 'json',
  kind: EncodedBodyKind,
): Record<string, unknown> {
  if (contentType === 'text')
    return refuseCutMarks(requireObject(decodeEncodedString(raw, kind), kind), kind);
  if (raw.trim() === '') throw refuse(`The ${kind} is empty. ${how(kind)}`);
  const parsed = parseJson(raw, kind, `The ${kind}`);
  return refuseCutMarks(
    requireObject(typeof parsed === 'string' ? decodeEncodedString(parsed, kind) : parsed, kind),
    kind,
  );
}

/**
 * Makes this plugin's routes with `config.encodedBody` accept the three forms (text/plain and application/json are
 * read here instead of by Fastify's own parsers, so every malformed body gets our message). A filter or query route
 * without a body searches everything; a row route without one is refused. Call it once in a route plugin.
 */
export function acceptEncodedBodies(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(
    ['application/json', 'text/plain'],
    { parseAs: 'string' },
    (request: FastifyRequest, body: string | Buffer, done: (error: Error | null, body?: unknown) => void) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      const kind = request.routeOptions.config.encodedBody;
      const type = /^\s*text\/plain/i.test(request.headers['content-type'] ?? '') ? 'text' : 'json';
      try {
        if (!kind) {
          done(null, type === 'json' && text.trim() !== '' ? plainJson(text) : text);
          return;
        }
        if (kind !== 'row' && text.trim() === '') {
          done(null, {});
          return;
        }
        done(null, decodeBody(text, type, kind));
      } catch (error) {
        done(error as Error);
      }
    },
  );
  app.addContentTypeParser(
    '*',
    (request: FastifyRequest, _payload: unknown, done: (error: Error) => void) => {
      const kind = request.routeOptions.config.encodedBody ?? 'body';
      const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim();
      done(
        new ApiError(
          415,
          `A ${kind} cannot be sent as ${type || 'this content type'}: send it as text/plain or application/json.`,
        ),
      );
    },
  );
  app.addHook('preValidation', async (request) => {
    const kind = request.routeOptions.config.encodedBody;
    if (!kind || request.body !== undefined) return;
    if (kind !== 'row') request.body = {};
    else throw refuse(`The request has no row. ${how(kind)}`);
  });
}
