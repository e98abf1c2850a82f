import { encodeSegment, tableId } from '#common/links.ts';

/** What names a table in the data API's paths (spec 000 §7). */
export interface TableRef {
  db: string;
  schema: string;
  table: string;
}

/** /api/sql/{db}, the name percent-encoded as one segment. */
export const databaseApiPath = (db: string) => `/api/sql/${encodeSegment(db)}`;

/** /api/sql/{db}/{schema}/{table}, each name one encoded segment; calls on a table append their suffix. */
export const tableApiPath = ({ db, schema, table }: TableRef) => `/api/sql/${tableId(db, schema, table)}`;

/** A query string of the defined values only ('' when none). */
export function queryString(values: Record<string, string | number | boolean | null | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && value !== null && value !== '') query.set(name, String(value));
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}
