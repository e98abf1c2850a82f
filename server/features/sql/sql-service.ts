import type { Filter as FilterDocument, FilterPlan } from '#common/contract/filter.ts';
import {
  ALL_ROWS_LIMIT,
  SEARCH_RESULTS_LIMIT,
  type DatabaseSummary,
  type Filter,
  type ForeignKeyChoices,
  type ForeignKeysQuery,
  type PageResult,
  type Row,
  type Table,
  type TableListItem,
} from '#common/contract/sql.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import { cutRows, refuseCutRow } from '#server/engines/cut-values.ts';
import { withRowVersion } from '#server/engines/row-version.ts';
import {
  mayAccessTable,
  requireTableAccess,
  databasePermissions,
  NO_RIGHTS,
  tablePermissions,
  visibleDatabases,
  visibleTables,
  type TableRef,
} from '#server/access/policy.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import { auditedWrite } from '#server/features/audit/audit-intents.ts';
import { readPageCursor, writePageCursor } from './page-cursor.ts';
import { pageLabels } from './page-labels.ts';
import { dataChangeEntry } from '#server/features/audit/row-audit.ts';
import { databaseNamed, openDatabase, openTable, type Caller } from '#server/access/table-access.ts';
import type { SqlContext } from './sql-context.ts';

/*
 * The data API's work (spec 000 §7 "Database data"): what the caller may see and change, then the engine call.
 * Every handler goes signed in → access policy → catalog lookup → work (server/access/table-access.ts).
 */

/** Rows as the data API answers them: each with its version (decision 0045), so the caller can send it back with a
 * save or delete. */
function versioned(table: Table, rows: Row[]): Row[] {
  for (const row of rows) withRowVersion(table, row);
  return rows;
}

/** GET api/sql: the databases the caller's links show. */
export function listDatabases(context: SqlContext, caller: Caller): DatabaseSummary[] {
  const engines = new Map(context.databases.all().map((engine) => [engine.name, engine]));
  return visibleDatabases(caller.account, [...engines.keys()]).map((name) => ({
    name,
    engine: engines.get(name)?.kind ?? 'unknown',
  }));
}

/** GET api/sql/{db}: the tables the links allow, each with the caller's rights on it. `refresh` reads the catalog
 * again; an administrator's refresh also reaches every other instance (with REDIS_URL, catalog-refresh.ts). */
export async function listTables(
  context: SqlContext,
  caller: Caller,
  database: string,
  options: { refresh?: boolean },
): Promise<TableListItem[]> {
  const engine = await openDatabase(context, caller, database);
  const tables = visibleTables(caller.account, database, await engine.catalog(options));
  if (options.refresh && caller.account.isAdmin) await context.catalogRefresh?.announce(database);
  const rightsOf = await databasePermissions(
    context.store,
    caller.account,
    database,
    tables.map((table) => ({ schema: table.schema, table: table.name })),
  );
  return tables.map((table) => ({
    ...table,
    rights: table.isView ? NO_RIGHTS : rightsOf({ schema: table.schema, table: table.name }),
  }));
}

/** GET api/sql/{db}/{schema}/{table}: every row, for tables of at most ALL_ROWS_LIMIT rows (counted exactly). */
export async function allRows(context: SqlContext, caller: Caller, ref: TableRef): Promise<Row[]> {
  const { engine, table } = await openTable(context, caller, ref, 'read');
  // One more than the limit: more rows than that is the exact answer to "too many", whatever the catalog says.
  const page = await engine.page(table, { filter: {}, page: 1, pageSize: ALL_ROWS_LIMIT + 1 });
  if (page.results.length > ALL_ROWS_LIMIT) {
    throw new ApiError(
      400,
      `The table ${ref.schema}.${ref.table} has more than ${ALL_ROWS_LIMIT.toLocaleString('en')} rows, too many to ` +
        `send at once. Read it a page at a time: GET /api/sql/${ref.database}/${ref.schema}/${ref.table}/page/1?pageSize=100.`,
    );
  }
  return versioned(table, page.results);
}

/** POST …/search: the first SEARCH_RESULTS_LIMIT rows matching the filter. */
export async function searchRows(
  context: SqlContext,
  caller: Caller,
  ref: TableRef,
  query: { filter: Filter; orderBy?: string | undefined },
): Promise<PageResult> {
  const { engine, table } = await openTable(context, caller, ref, 'read');
  const page = await engine.page(table, {
    filter: query.filter,
    orderBy: query.orderBy || null,
    page: 1,
    pageSize: SEARCH_RESULTS_LIMIT,
  });
  return { results: versioned(table, page.results), count: page.count, countIsExact: page.countIsExact };
}

/** GET …/page/{page}, POST …/page/{page}/search and POST …/query: one page, in the asked order, with the count and
 * the page's cursor. A cursor sent back (`cursor`, the page shown) is checked (page-cursor.ts: a 400 when this server
 * did not sign it or it belongs to another table, sort, search terms, filter document or page size); when it is the
 * asked page's neighbour's, the page is read by seeking from it, else by number (0036). A filter document (`where`,
 * issue 35) is only a WHERE beside the search terms: the cursor still holds the sort key, so neighbours seek under
 * any filter; one that scans runs under the scan budget and a stop at it is the engine's 504. */
export async function pageOfRows(
  context: SqlContext,
  caller: Caller,
  ref: TableRef,
  query: {
    page: number;
    pageSize: number;
    orderBy?: string | undefined;
    filter?: Filter | undefined;
    where?: FilterDocument | undefined;
    cursor?: string | undefined;
    cutText?: number | undefined;
    labels?: boolean | undefined;
  },
  cursorKey: Buffer,
): Promise<PageResult> {
  const { engine, table } = await openTable(context, caller, ref, 'read');
  const scope = {
    database: ref.database,
    table,
    orderBy: query.orderBy || null,
    filter: query.filter ?? {},
    where: query.where,
    pageSize: query.pageSize,
  };
  const from = query.cursor ? readPageCursor(cursorKey, scope, query.cursor) : undefined;
  const page = await engine.page(table, {
    filter: scope.filter,
    where: scope.where,
    orderBy: scope.orderBy,
    page: query.page,
    pageSize: query.pageSize,
    from,
  });
  // Versioned first: the version is the whole row's (decision 0066), then cut when the caller asked.
  const results = versioned(table, page.results);
  return {
    results: query.cutText === undefined ? results : cutRows(table, results, query.cutText, scope.orderBy),
    count: page.count,
    countIsExact: page.countIsExact,
    cursor: writePageCursor(cursorKey, scope, query.page, page.boundary),
    ...(query.labels ? { labels: await pageLabels(engine, caller, ref.database, table, page.results) } : {}),
  };
}

/** POST …/query/plan: how the engine would read the rows the filter keeps, in this order (each condition through an
 * index or by a scan, whether the whole filter scans, the engine's estimate, the scan budget, what would make it
 * fast). The filter and sort are checked as a page checks them. */
export async function planQuery(
  context: SqlContext,
  caller: Caller,
  ref: TableRef,
  query: { where: FilterDocument; orderBy?: string | undefined },
): Promise<FilterPlan> {
  const { engine, table } = await openTable(context, caller, ref, 'read');
  return engine.plan(table, { where: query.where, orderBy: query.orderBy || null });
}

/**
 * GET …/foreignkeys: the first page of choices of every single-column foreign key; with `column`, that column's
 * page (searchable by `term`). Choices come from another table, so they are only shown when the links allow that
 * table too.
 */
export async function foreignKeyChoices(
  context: SqlContext,
  caller: Caller,
  ref: TableRef,
  query: ForeignKeysQuery,
): Promise<ForeignKeyChoices[] | ForeignKeyChoices> {
  const { engine, table } = await openTable(context, caller, ref, 'read');
  const keys = singleColumnKeys(table);
  if (query.column !== undefined) {
    const key = keys.find((k) => k.column === query.column);
    if (!key) {
      // The engine says why: not a column, or not a reference of its own.
      await engine.foreignKeyOptions(table, query.column, { page: 1 });
      throw new ApiError(400, `${query.column} has no options.`);
    }
    return choicesOf(context, caller, engine, table, key, { term: query.term, page: query.page });
  }
  return Promise.all(keys.map((key) => choicesOf(context, caller, engine, table, key, { page: 1 })));
}

interface SingleColumnKey {
  column: string;
  referencedSchema: string;
  referencedTable: string;
  referencedColumn: string;
}

function singleColumnKeys(table: Table): SingleColumnKey[] {
  const keys = new Map<string, SingleColumnKey>();
  for (const fk of table.foreignKeys) {
    const column = fk.columns[0];
    const referencedColumn = fk.referencedColumns[0];
    if (fk.columns.length !== 1 || column === undefined || referencedColumn === undefined || keys.has(column))
      continue;
    keys.set(column, {
      column,
      referencedSchema: fk.referencedSchema,
      referencedTable: fk.referencedTable,
      referencedColumn,
    });
  }
  return [...keys.values()];
}

async function choicesOf(
  context: SqlContext,
  caller: Caller,
  engine: DatabaseEngine,
  table: Table,
  key: SingleColumnKey,
  query: { term?: string | undefined; page: number },
): Promise<ForeignKeyChoices> {
  const referenced: TableRef = {
    database: engine.name,
    schema: key.referencedSchema,
    table: key.referencedTable,
  };
  const canRead = await mayAccessTable(context.store, caller.account, referenced, 'read');
  const options = canRead
    ? await engine.foreignKeyOptions(table, key.column, {
        ...(query.term === undefined ? {} : { term: query.term }),
        page: query.page,
      })
    : { results: [], hasMore: false };
  return {
    ...key,
    canReadReferencedTable: canRead,
    options: options.results,
    hasMore: options.hasMore,
    page: query.page,
  };
}

/**
 * POST …/{table}: inserts or updates one row and answers it as the database holds it, with its new version. Inserting
 * needs CanInsert and updating CanUpdate; which one applies is known once the engine has looked the row up by its
 * key, and it is checked there, before anything is written. A row sent with its version is updated only while it is
 * still that version (the engine's 409 otherwise, after the rights check: decision 0045).
 */
export async function upsertRow(context: SqlContext, caller: Caller, ref: TableRef, row: Row): Promise<Row> {
  const { store } = context;
  await requireTableAccess(store, caller.account, ref, 'read', caller.address);
  const rights = await tablePermissions(store, caller.account, ref);
  if (!rights.canInsert && !rights.canUpdate) {
    await requireTableAccess(store, caller.account, ref, 'update', caller.address);
  }
  const engine = databaseNamed(context, ref.database);
  const table = await engine.table(ref.schema, ref.table);
  // A row read with cut values (decision 0066) is never written back.
  refuseCutRow(table, row);
  const author = { userId: caller.account.userId, address: caller.address, ref, table };
  const change = await auditedWrite(context, (record) =>
    engine.upsert(table, row, {
      beforeWrite: (kind) => requireTableAccess(store, caller.account, ref, kind, caller.address),
      beforeCommit: ({ before, after }) =>
        record(dataChangeEntry(author, { change: before ? 'update' : 'insert', before, after })),
    }),
  );
  return withRowVersion(table, { ...change.after });
}

/** POST …/{table}/delete: deletes one row by its key (CanDelete) and answers it as it was. */
export async function deleteRow(context: SqlContext, caller: Caller, ref: TableRef, row: Row): Promise<Row> {
  const { engine, table } = await openTable(context, caller, ref, 'delete');
  refuseCutRow(table, row);
  const author = { userId: caller.account.userId, address: caller.address, ref, table };
  return auditedWrite(context, (record) =>
    engine.deleteRow(table, row, {
      beforeCommit: (deleted) =>
        record(dataChangeEntry(author, { change: 'delete', before: deleted, after: null })),
    }),
  );
}
