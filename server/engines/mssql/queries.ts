import { sql, type CompiledQuery, type Kysely } from 'kysely';
import type { Column } from '#common/contract/sql.ts';
import type { Executor, SqlFragment } from '#server/engines/adapter.ts';
import type { DynamicSchema } from '#server/engines/engine.ts';
import { ScanStopped } from '#server/engines/engine-error.ts';

/**
 * `OFFSET m ROWS FETCH NEXT n ROWS ONLY`, both bound. SQL Server only accepts it after an ORDER BY (the generic
 * engine writes `ORDER BY (SELECT NULL)` when there is nothing to sort by) and refuses FETCH NEXT 0 ROWS.
 * Kysely's own .limit()/.offset() write LIMIT, which SQL Server does not know.
 */
export function limitOffset(limit: number, offset: number): SqlFragment {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`limit must be a whole number from 1, not ${limit}`);
  if (!Number.isInteger(offset) || offset < 0)
    throw new RangeError(`offset must be a whole number from 0, not ${offset}`);
  return sql`offset ${offset} rows fetch next ${limit} rows only`;
}

/** The term with LIKE's wildcards (% _ and the [ of a character class) and the escape character taken literally. */
export const escapeLike = (term: string) => term.replace(/[\\%_[]/g, (c) => `\\${c}`);

const NON_UNICODE = new Set(['char', 'varchar', 'text']);

/**
 * `column LIKE 'prefix%' ESCAPE '\'`: SQL Server answers a LIKE whose pattern starts with a constant prefix from an
 * index on the column (a range seek between LikeRangeStart and LikeRangeEnd, with a bound pattern too). The match
 * follows the column's collation, so it is case-insensitive under the usual *_CI_* collations.
 *
 * Strings bind as nvarchar. Against a varchar column under a SQL_* collation (SQL_Latin1_General_CP1_CI_AS is the
 * default of US installs) that converts the column, not the pattern, and the seek becomes a scan: when the caller
 * passes the column and the term is ASCII (the same bytes in every code page), the pattern is cast to varchar.
 */
export function textStartsWith(
  column: SqlFragment,
  prefix: string,
  info?: Pick<Column, 'type'>,
): SqlFragment {
  return textLike(column, `${escapeLike(prefix)}%`, info);
}

/** `column LIKE '%text%' ESCAPE '\'`, as textStartsWith (the collation decides the case), without an index. */
export function textContains(column: SqlFragment, text: string, info?: Pick<Column, 'type'>): SqlFragment {
  return textLike(column, `%${escapeLike(text)}%`, info);
}

/** `column LIKE '%text' ESCAPE '\'`, as textContains. */
export function textEndsWith(column: SqlFragment, text: string, info?: Pick<Column, 'type'>): SqlFragment {
  return textLike(column, `%${escapeLike(text)}`, info);
}

/** The LIKE of a bound pattern, cast to varchar for a varchar column when ASCII (see textStartsWith). */
function textLike(column: SqlFragment, pattern: string, info?: Pick<Column, 'type'>): SqlFragment {
  // eslint-disable-next-line no-control-regex
  const asVarchar = info !== undefined && NON_UNICODE.has(info.type) && /^[\x00-\x7f]*$/.test(pattern);
  const bound = asVarchar ? sql`cast(${pattern} as varchar(8000))` : sql`${pattern}`;
  return sql`${column} like ${bound} escape '\\'`;
}

/** A constant name for the table that catches the inserted keys (a temporary table of the statement's scope). */
const KEYS = sql`#dbui_inserted_keys`;

/**
 * Inserts one row and answers its key columns as the row holds them (identity, a default such as NEWID() or
 * NEWSEQUENTIALID(), a trigger's change). A plain `OUTPUT INSERTED.…` is refused on a table with triggers (error
 * 334), so the keys go `OUTPUT … INTO` a temporary table made by `SELECT … INTO` from the table itself (so its
 * columns have the key columns' types without writing any type name; the UNION ALL keeps an identity column from
 * making the copy an identity column too). The three statements run as one batch inside sp_executesql, where the
 * temporary table lives and dies. Names are quoted by the dialect, values are bound; NULL is written as a literal
 * because an nvarchar NULL parameter cannot go into a varbinary or image column. IDENTITY_INSERT is never used.
 */
export async function insertRow(
  executor: Executor,
  table: { schema: string; name: string },
  values: Record<string, unknown>,
  keyColumns: string[],
): Promise<Record<string, unknown>> {
  const target = sql.id(table.schema, table.name);
  const names = Object.keys(values);
  const columns = sql.join(names.map((name) => sql.id(name)));
  const bound = sql.join(
    names.map((name) =>
      values[name] === null || values[name] === undefined ? sql`null` : sql`${values[name]}`,
    ),
  );
  if (keyColumns.length === 0) {
    await (
      names.length > 0
        ? sql`insert into ${target} (${columns}) values (${bound})`
        : sql`insert into ${target} default values`
    ).execute(executor);
    return {};
  }
  const keys = sql.join(keyColumns.map((name) => sql.id(name)));
  const inserted = sql.join(keyColumns.map((name) => sql`inserted.${sql.id(name)}`));
  const output = sql`output ${inserted} into ${KEYS} (${keys})`;
  const insert =
    names.length > 0
      ? sql`insert into ${target} (${columns}) ${output} values (${bound})`
      : sql`insert into ${target} ${output} default values`;
  const { rows } = await sql<Record<string, unknown>>`
    select ${keys} into ${KEYS} from ${target} where 1 = 0 union all select ${keys} from ${target} where 1 = 0;
    ${insert};
    select ${keys} from ${KEYS};`.execute(executor);
  // The last row: a trigger that selects would put its rows first.
  return rows[rows.length - 1] ?? {};
}

/**
 * A scanning filter's select on the scan pool, whose tedious requests time out at the scan budget: tedious then sends
 * the server an attention, which cancels the request there (and closes a connection whose cancel is not
 * acknowledged, decision 0019). SQL Server has no per-statement timeout of its own in T-SQL. A plain select under
 * READ COMMITTED takes its shared locks a row or page at a time and releases each as it moves on, so a writer waits
 * at most for the row being read, never for the scan.
 */
export async function scanQuery(
  db: Kysely<DynamicSchema>,
  query: CompiledQuery,
): Promise<Record<string, unknown>[]> {
  try {
    return (await db.executeQuery<Record<string, unknown>>(query)).rows;
  } catch (error) {
    const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : null;
    if (code === 'ETIMEOUT') throw new ScanStopped(null, { cause: error });
    throw error;
  }
}
