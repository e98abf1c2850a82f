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

export { queryString } from '#web/api/query-string.ts';
