/*
 * The spec's link rule, one matcher for the server and the web app: `*` allows everything, `prefix/*` allows every
 * path that starts with `prefix/` (and the prefix itself), any other link allows exactly its path.
 */

/** Paths anyone may open, signed in or not (spec §2). */
export const PUBLIC_PATHS = ['/', '/home', '/error', '/account/login'] as const;

const normalise = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);

/** Whether one link allows a path. */
export function linkAllows(link: string, path: string): boolean {
  const target = normalise(path);
  const pattern = normalise(link.trim());
  if (pattern === '*' || pattern === '/*') return true;
  if (pattern.endsWith('/*')) {
    const prefix = pattern.slice(0, -2);
    return target === prefix || target.startsWith(`${prefix}/`);
  }
  return target === pattern;
}

/** Whether any of the links allows a path. */
export function linksAllow(links: readonly string[], path: string): boolean {
  return links.some((link) => linkAllows(link, path));
}

/** The browser path of a table, which its links must allow: /db/{db}/{schema}/{table}. */
export const tablePath = (database: string, schema: string, table: string) =>
  `/db/${database}/${schema}/${table}`;

/** Whether the links show a database at all: a link of everything, or one under /db/{name}. */
export function linksShowDatabase(links: readonly string[], database: string): boolean {
  return links.some((raw) => {
    const link = normalise(raw.trim());
    return (
      link === '*' ||
      link === '/*' ||
      link === '/db/*' ||
      link === `/db/${database}` ||
      link.startsWith(`/db/${database}/`)
    );
  });
}
