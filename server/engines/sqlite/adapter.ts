import type { Kysely } from 'kysely';
import type { EngineAdapter } from '#server/engines/adapter.ts';
import type { DynamicSchema } from '#server/engines/engine.ts';
import { decodeCommon } from '#server/engines/wire-values.ts';
import { readSqliteCatalog } from './catalog.ts';
import { explainSqliteError } from './errors.ts';
import { sqliteInsertRow, sqliteLimitOffset, sqliteTextStartsWith } from './queries.ts';
import { sqliteStreamQuery } from './stream.ts';

/** The SQLite adapter over a better-sqlite3 connection opened with safe integers (64-bit values arrive exact). */
export function sqliteAdapter(db: Kysely<DynamicSchema>, file: string): EngineAdapter {
  return {
    kind: 'sqlite',
    db,
    readCatalog: () => readSqliteCatalog(db, file),
    limitOffset: sqliteLimitOffset,
    textStartsWith: sqliteTextStartsWith,
    decodeValue: decodeCommon,
    encodeValue(column, value) {
      if (typeof value === 'boolean') return value ? 1 : 0;
      // Whole numbers bind as 64-bit integers so values past 2^53 stay exact.
      if (
        column.typeGroup === 'Number' &&
        typeof value === 'string' &&
        /^[-+]?\d+$/.test(value) &&
        column.scale === 0
      ) {
        return BigInt(value);
      }
      return value;
    },
    insertRow: sqliteInsertRow,
    explainError: explainSqliteError,
    streamQuery: (query, options) => sqliteStreamQuery(file, query, options),
  };
}
