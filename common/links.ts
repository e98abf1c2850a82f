import { LINK_MAX_LENGTH, LINK_MAX_SEGMENTS } from './limits.ts';

/*
 * The spec's link rule, one matcher for the server and the web app (docs/decisions/0015-link-segments.md).
 *
 * A path is a list of segments, and a name (database, schema, table) is always exactly one segment, percent-encoded
 * (`encodeSegment`), so a `/`, `*`, `%` or `..` inside a name can never be read as syntax. A link is `*`
 * (everything) or a path whose last segment may be `*`: "this prefix and everything below it". Links and paths are
 * compared segment by segment and exactly (case included). Links are stored canonical (`canonicalLink`: each
 * segment decoded and encoded again), and matching is linear in the length of the links and the path: links are
 * compiled once into a tree of segments, no regular expression or pairwise string search is involved.
 */

/** Paths anyone may open, signed in or not (spec §2). */
export const PUBLIC_PATHS = ['/', '/home', '/error', '/account/login'] as const;

const WILDCARD = '*';

/** encodeURIComponent, except that a lone surrogate (which it refuses) is written as its WTF-8 bytes: no
 * well-formed name encodes to those, so two different names never share a segment. */
function encodeCodeUnits(name: string): string {
  try {
    return encodeURIComponent(name);
  } catch {
    let encoded = '';
    for (let i = 0; i < name.length; i++) {
      const unit = name.charCodeAt(i);
      const next = name.charCodeAt(i + 1);
      if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        encoded += encodeURIComponent(name.slice(i, i + 2));
        i++;
      } else if (unit >= 0xd800 && unit <= 0xdfff) {
        const byte = (value: number) => `%${value.toString(16).toUpperCase()}`;
        encoded += `%ED${byte(0xa0 | ((unit >> 6) & 0x1f))}${byte(0x80 | (unit & 0x3f))}`;
      } else {
        encoded += encodeURIComponent(name.charAt(i));
      }
    }
    return encoded;
  }
}

/** A name as one path segment: percent-encoded (encodeURIComponent), with `*` (the wildcard) and the names `.` and
 * `..` (which a browser would resolve) escaped too. Plain names (letters, digits, `_`, `-`, `.`) are unchanged. */
export function encodeSegment(name: string): string {
  const encoded = encodeCodeUnits(name).replaceAll(WILDCARD, '%2A');
  return encoded === '.' ? '%2E' : encoded === '..' ? '%2E%2E' : encoded;
}

/** The name a segment encodes, or null when it is not valid percent-encoding of UTF-8. */
function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** The segments after the leading `/`, without the empty ones trailing slashes leave (loops, no pattern: linear). */
function segmentsOf(path: string): string[] {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 0x2f) end--;
  return end > 1 ? path.slice(1, end).split('/') : [];
}

/** Whether a path has more than `limit` segments, counted without splitting it. */
function hasMoreSegments(path: string, limit: number): boolean {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 0x2f) end--;
  let segments = end > 1 ? 1 : 0;
  for (let at = path.indexOf('/', 1); at >= 0 && at < end; at = path.indexOf('/', at + 1)) {
    if (++segments > limit) return true;
  }
  return false;
}

/** A table's TableId: {db}/{schema}/{table}, each name one encoded segment. */
export const tableId = (database: string, schema: string, table: string) =>
  `${encodeSegment(database)}/${encodeSegment(schema)}/${encodeSegment(table)}`;

/** The browser path of a table, which its links must allow: /db/{db}/{schema}/{table}, each name encoded. */
export const tablePath = (database: string, schema: string, table: string) =>
  `/db/${tableId(database, schema, table)}`;

/** The names a TableId stands for, or null when it is not three valid segments. */
export function tableOfId(id: string): { database: string; schema: string; table: string } | null {
  const parts = id.split('/');
  if (parts.length !== 3 || parts.some((part) => part === '')) return null;
  const [database, schema, table] = parts.map(decodeSegment);
  if (database == null || schema == null || table == null) return null;
  return { database, schema, table };
}

/** Why a link cannot be stored (common/contract/admin.ts roleMessages words each for people). */
export type LinkProblem = 'start' | 'star' | 'percent' | 'length' | 'segments';

/** A link as it is stored: trimmed, no trailing slash, each segment decoded and encoded again (so `%2f` and `%2F`,
 * or a space and `%20`, are the same link), `*` only as the whole link or its last segment. */
export function canonicalLink(raw: string): { link: string } | { problem: LinkProblem } {
  const link = raw.trim();
  if (link === WILDCARD) return { link };
  if (!link.startsWith('/')) return { problem: 'start' };
  if (link.length > LINK_MAX_LENGTH) return { problem: 'length' };
  if (hasMoreSegments(link, LINK_MAX_SEGMENTS)) return { problem: 'segments' };
  const segments = segmentsOf(link);
  const stored: string[] = [];
  for (const [index, segment] of segments.entries()) {
    if (segment === WILDCARD && index === segments.length - 1) {
      stored.push(WILDCARD);
      continue;
    }
    if (segment.includes(WILDCARD)) return { problem: 'star' };
    const name = decodeSegment(segment);
    if (name === null) return { problem: 'percent' };
    stored.push(encodeSegment(name));
  }
  const canonical = `/${stored.join('/')}`;
  return canonical.length > LINK_MAX_LENGTH ? { problem: 'length' } : { link: canonical };
}

/** Why a TableId cannot be stored. */
export type TableIdProblem = 'tableId' | 'percent' | 'length';

/** A TableId as it is stored: three segments, each decoded and encoded again. */
export function canonicalTableId(raw: string): { tableId: string } | { problem: TableIdProblem } {
  const id = raw.trim();
  if (id.length > LINK_MAX_LENGTH) return { problem: 'length' };
  const parts = id.split('/');
  if (parts.length !== 3 || parts.some((part) => part === '')) return { problem: 'tableId' };
  const names = parts.map(decodeSegment);
  if (names.some((name) => name === null)) return { problem: 'percent' };
  const canonical = names.map((name) => encodeSegment(name ?? '')).join('/');
  return canonical.length > LINK_MAX_LENGTH ? { problem: 'length' } : { tableId: canonical };
}

/** The segments of a browser path, or null for a path no segment link may allow: not absolute, or with a `.` or
 * `..` segment (never resolved here). Each segment is canonicalised as the match walks, so a long path costs only as
 * far as some link goes along it. */
function pathSegments(path: string): string[] | null {
  if (!path.startsWith('/')) return null;
  const segments = segmentsOf(path);
  return segments.some((segment) => segment === '.' || segment === '..') ? null : segments;
}

/** A browser path's segment in canonical form, or null when it is not valid percent-encoding. */
function recoded(segment: string): string | null {
  const name = decodeSegment(segment);
  return name === null ? null : encodeSegment(name);
}

/** What a set of links allows, compiled once (linear in their length) and asked many times. */
export interface LinkMatcher {
  /** Whether a browser path is allowed (its segments are decoded and encoded again first). */
  path(path: string): boolean;
  /** Whether the table's path /db/{db}/{schema}/{table} is allowed. */
  table(database: string, schema: string, table: string): boolean;
  /** Whether the database is shown: a link of everything, or any link under /db/{name}. */
  database(database: string): boolean;
}

const ROOT = 0;

/** Compiles links into a matcher: a tree of their segments, whose nodes are numbers and whose edges are one map
 * keyed by node and segment (a segment never holds a `/`). Links are expected canonical (as stored); one that is not
 * matches less, and one with more than LINK_MAX_SEGMENTS segments (which no rule lets anyone save) matches nothing. */
export function linkMatcher(links: readonly string[]): LinkMatcher {
  const edges = new Map<string, number>();
  // Where links end: in `*` (this node and everything under it), or exactly at the node.
  const below = new Set<number>();
  const exact = new Set<number>();
  let nodes = 1;
  for (const raw of links) {
    const link = raw.trim();
    if (link === WILDCARD) {
      below.add(ROOT);
      continue;
    }
    if (!link.startsWith('/') || hasMoreSegments(link, LINK_MAX_SEGMENTS)) continue;
    const segments = segmentsOf(link);
    const prefix = segments[segments.length - 1] === WILDCARD;
    let node = ROOT;
    for (const segment of prefix ? segments.slice(0, -1) : segments) {
      const edge = `${node}/${segment}`;
      let next = edges.get(edge);
      if (next === undefined) {
        next = nodes++;
        edges.set(edge, next);
      }
      node = next;
    }
    (prefix ? below : exact).add(node);
  }

  const allows = (segments: readonly string[], canonical: (segment: string) => string | null): boolean => {
    let node = ROOT;
    if (below.has(node)) return true;
    for (const segment of segments) {
      const name = canonical(segment);
      const next = name === null ? undefined : edges.get(`${node}/${name}`);
      if (next === undefined) return false;
      node = next;
      if (below.has(node)) return true;
    }
    return exact.has(node);
  };

  return {
    path(path) {
      const segments = pathSegments(path);
      return segments === null ? below.has(ROOT) : allows(segments, recoded);
    },
    table: (database, schema, table) => allows(['db', database, schema, table], encodeSegment),
    database(database) {
      if (below.has(ROOT)) return true;
      const db = edges.get(`${ROOT}/db`);
      return db !== undefined && (below.has(db) || edges.has(`${db}/${encodeSegment(database)}`));
    },
  };
}

/** Whether one link allows a path. */
export function linkAllows(link: string, path: string): boolean {
  return linkMatcher([link]).path(path);
}

/** Whether any of the links allows a path (to ask about many paths, compile once with linkMatcher). */
export function linksAllow(links: readonly string[], path: string): boolean {
  return linkMatcher(links).path(path);
}

/** Whether the links show a database at all: a link of everything, or one under /db/{name}. */
export function linksShowDatabase(links: readonly string[], database: string): boolean {
  return linkMatcher(links).database(database);
}
