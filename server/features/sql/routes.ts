import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope } from '#common/contract/envelope.ts';
import {
  filterPlan,
  filterPlanBody,
  filterQueryBody,
  filterQueryParams,
  FILTER_CALL_RULES,
} from '#common/contract/filter.ts';
import { browserMessages } from '#common/messages.ts';
import {
  answeredRow,
  databaseParams,
  databaseSummary,
  filterBody,
  foreignKeyChoices,
  foreignKeysQuery,
  historyEntryParams,
  pageQuery,
  pageResult,
  row,
  rowBody,
  rowConflict,
  ROW_VERSION_KEY,
  rowHistory as rowHistoryAnswer,
  searchQuery,
  tableListItem,
  tableListQuery,
  tablePageParams,
  tableParams,
  undoResult,
} from '#common/contract/sql.ts';
import { rowHistory, undoRowChange } from '#server/features/audit/row-history-service.ts';
import type { BulkUndoStarter } from '#server/features/audit/undo-service.ts';
import type { DatabaseRegistry } from '#server/engines/database-registry.ts';
import { callerOf, refOf } from '#server/access/table-access.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { acceptEncodedBodies } from '#server/plugins/body-decoding.ts';
import { success } from '#server/plugins/error-envelope.ts';
import { requireSignedIn } from '#server/plugins/session.ts';
import { catalogRefresh } from './catalog-refresh.ts';
import {
  allRows,
  deleteRow,
  foreignKeyChoices as choicesOfKeys,
  listDatabases,
  listTables,
  pageOfRows,
  planQuery,
  searchRows,
  upsertRow,
} from './sql-service.ts';
import { pageCursorKey } from './page-cursor.ts';
import { referencesOf } from './references-service.ts';
import { references } from '#common/contract/relations.ts';
import type { SqlContext } from './sql-context.ts';

/** How a save uses the row's version (decision 0045), for the OpenAPI description. */
const VERSION_RULE =
  `Every row the data API answers carries its version under ${ROW_VERSION_KEY} (absent for a table that has a ` +
  'column of that name). Send it back with the row (the row as it was answered with some fields changed is enough, ' +
  'or its key, the changed columns and the version): the row is updated only while it is still as it was read, ' +
  'checked in the write’s transaction under the row’s lock. When it changed since, nothing is written and the ' +
  'answer is 409 with data.current, the row as it is now with its own version: send the save again with that ' +
  'version to write over it. Without a version the row is written whatever it holds now (last write wins), as ' +
  'before versions existed. An insert ignores the version.';

/** Rows carry images as base64 inside the encoding: room for a picture of about 15 MB. */
const ROW_BODY_LIMIT_BYTES = 32 * 1024 * 1024;

/** The spec's "Database data" calls (000 §7), except export, for signed-in accounts. */
export function sqlRoutes(
  store: AppStore,
  databases: DatabaseRegistry,
  options: { secretKey: Buffer; redisUrl?: string | null; bulkUndo?: BulkUndoStarter },
): FastifyPluginAsyncZod {
  const cursorKey = pageCursorKey(options.secretKey);
  return async (app) => {
    const catalogs = await catalogRefresh({
      redisUrl: options.redisUrl ?? null,
      store,
      databases,
      log: app.log,
    });
    app.addHook('onClose', () => catalogs.close());
    const context: SqlContext = {
      store,
      databases,
      log: app.log,
      catalogRefresh: catalogs,
      ...(options.bulkUndo ? { bulkUndo: options.bulkUndo } : {}),
    };
    // Signed in first, before a body is read or a query checked: anonymous callers learn nothing else.
    app.addHook('onRequest', requireSignedIn);
    acceptEncodedBodies(app);
    const tags = ['sql'];
    const filter = { encodedBody: 'filter' as const };
    const query = { encodedBody: 'query' as const };

    app.get(
      '/api/sql',
      {
        schema: {
          tags,
          summary: 'The databases the caller’s links show',
          response: { 200: envelope(z.array(databaseSummary)) },
        },
      },
      async (request) => success(listDatabases(context, callerOf(request))),
    );
    app.get(
      '/api/sql/:db',
      {
        schema: {
          tags,
          summary: 'The tables of a database the caller’s links allow, with the caller’s rights on each',
          params: databaseParams,
          querystring: tableListQuery,
          response: { 200: envelope(z.array(tableListItem)) },
        },
      },
      async (request) =>
        success(
          await listTables(context, callerOf(request), request.params.db, {
            refresh: request.query.refresh === true,
          }),
        ),
    );
    app.get(
      '/api/sql/:db/:schema/:table',
      {
        schema: {
          tags,
          summary: 'Every row of a table of at most 1,000 rows (bigger tables: read by page)',
          params: tableParams,
          response: { 200: envelope(z.array(answeredRow)) },
        },
      },
      async (request) => success(await allRows(context, callerOf(request), refOf(request.params))),
    );
    app.get(
      '/api/sql/:db/:schema/:table/foreignkeys',
      {
        schema: {
          tags,
          summary:
            'The first 25 choices of each single-column foreign key; with ?column=&term=&page= that column’s page: ' +
            'the term’s matches first, then every other choice',
          params: tableParams,
          querystring: foreignKeysQuery,
          response: { 200: envelope(z.union([z.array(foreignKeyChoices), foreignKeyChoices])) },
        },
      },
      async (request) =>
        success(await choicesOfKeys(context, callerOf(request), refOf(request.params), request.query)),
    );
    app.post(
      '/api/sql/:db/:schema/:table/search',
      {
        config: filter,
        schema: {
          tags,
          summary: 'The first 100 rows matching a filter (column → search term)',
          params: tableParams,
          querystring: searchQuery,
          body: filterBody,
          response: { 200: envelope(pageResult) },
        },
      },
      async (request) =>
        success(
          await searchRows(context, callerOf(request), refOf(request.params), {
            filter: request.body,
            orderBy: request.query.orderBy,
          }),
        ),
    );
    app.get(
      '/api/sql/:db/:schema/:table/page/:page',
      {
        schema: {
          tags,
          summary:
            'One page of rows (pageSize 20, 40, 60, 80 or 100; orderBy name or -name) and its cursor; the next or ' +
            'previous page asked for with ?cursor= (the page shown) seeks from it, a page past the middle is read ' +
            'from the end',
          params: tablePageParams,
          querystring: pageQuery,
          response: { 200: envelope(pageResult) },
        },
      },
      async (request) =>
        success(
          await pageOfRows(
            context,
            callerOf(request),
            refOf(request.params),
            {
              page: request.params.page,
              ...request.query,
            },
            cursorKey,
          ),
        ),
    );
    app.post(
      '/api/sql/:db/:schema/:table/page/:page/search',
      {
        config: filter,
        schema: {
          tags,
          summary:
            'One page of the rows matching a filter, with its cursor (?cursor=, seeking and the end as for …/page/{page})',
          params: tablePageParams,
          querystring: pageQuery,
          body: filterBody,
          response: { 200: envelope(pageResult) },
        },
      },
      async (request) =>
        success(
          await pageOfRows(
            context,
            callerOf(request),
            refOf(request.params),
            {
              page: request.params.page,
              ...request.query,
              filter: request.body,
            },
            cursorKey,
          ),
        ),
    );
    app.post(
      '/api/sql/:db/:schema/:table/query',
      {
        config: query,
        schema: {
          tags,
          summary:
            'One page of the rows a filter document keeps (any column: eq, ne, lt, le, gt, ge, between, in, ' +
            'startsWith, contains, endsWith, isNull, isNotNull; and, or, not), ANDed with the search terms when ' +
            'given, with the count and the page’s cursor (?cursor= seeks as for …/page/{page})',
          description: FILTER_CALL_RULES,
          params: tableParams,
          querystring: filterQueryParams,
          body: filterQueryBody,
          response: { 200: envelope(pageResult) },
        },
      },
      async (request) =>
        success(
          await pageOfRows(
            context,
            callerOf(request),
            refOf(request.params),
            { ...request.query, filter: request.body.search, where: request.body.where },
            cursorKey,
          ),
        ),
    );
    app.post(
      '/api/sql/:db/:schema/:table/query/plan',
      {
        config: query,
        schema: {
          tags,
          summary:
            'How a filter document would be read: each condition through an index or by a scan, whether the whole ' +
            'filter scans (and so runs under the scan budget), the engine’s row estimate and what would make it fast',
          description: FILTER_CALL_RULES,
          params: tableParams,
          body: filterPlanBody,
          response: { 200: envelope(filterPlan) },
        },
      },
      async (request) =>
        success(await planQuery(context, callerOf(request), refOf(request.params), request.body)),
    );
    app.post(
      '/api/sql/:db/:schema/:table',
      {
        config: { encodedBody: 'row' },
        bodyLimit: ROW_BODY_LIMIT_BYTES,
        schema: {
          tags,
          summary:
            'Insert (CanInsert) or update (CanUpdate) one row; answers the row as saved, with its new version',
          description: VERSION_RULE,
          params: tableParams,
          body: rowBody,
          response: { 200: envelope(answeredRow), 409: envelope(rowConflict) },
        },
      },
      async (request) =>
        success(
          await upsertRow(context, callerOf(request), refOf(request.params), request.body),
          browserMessages.rowUpdated,
        ),
    );
    app.post(
      '/api/sql/:db/:schema/:table/delete',
      {
        config: { encodedBody: 'row' },
        bodyLimit: ROW_BODY_LIMIT_BYTES,
        schema: {
          tags,
          summary: 'Delete one row by its key (CanDelete); answers the row as it was',
          description:
            `With the row's ${ROW_VERSION_KEY} (the whole row as it was answered, or its key and version), the row is ` +
            'deleted only while it is still as it was read: otherwise 409, nothing deleted, and data.current is the ' +
            'row as it is now. Without it the row is deleted whatever it holds.',
          params: tableParams,
          body: rowBody,
          response: { 200: envelope(row), 409: envelope(rowConflict) },
        },
      },
      async (request) =>
        success(
          await deleteRow(context, callerOf(request), refOf(request.params), request.body),
          browserMessages.rowDeleted,
        ),
    );
    app.post(
      '/api/sql/:db/:schema/:table/references',
      {
        config: { encodedBody: 'row' },
        bodyLimit: ROW_BODY_LIMIT_BYTES,
        schema: {
          tags,
          summary:
            'Referenced by: for each foreign key of a table the caller may read that points at this table, the ' +
            'referencing table and columns, its ON DELETE rule, and how many rows point at the row with the body’s key',
          description:
            'The count is exact when the referencing columns lead an index, at most 1,000 (count 1000 with capped: ' +
            '"1,000+"), and null ("not counted") when they are not indexed. Tables the caller may not read are ' +
            'neither listed nor counted. A key that names no row still answers; a key missing a column or of the ' +
            'wrong type is a 400.',
          params: tableParams,
          body: rowBody,
          response: { 200: envelope(references) },
        },
      },
      async (request) =>
        success(await referencesOf(context, callerOf(request), refOf(request.params), request.body)),
    );
    app.post(
      '/api/sql/:db/:schema/:table/history',
      {
        config: { encodedBody: 'row' },
        bodyLimit: ROW_BODY_LIMIT_BYTES,
        schema: {
          tags,
          summary:
            'A row’s history: the audit entries of the row with the body’s key, newest first (at most 50), each ' +
            'with canUndo (anyone who may read the table)',
          params: tableParams,
          body: rowBody,
          response: { 200: envelope(rowHistoryAnswer) },
        },
      },
      async (request) =>
        success(await rowHistory(context, callerOf(request), refOf(request.params), request.body)),
    );
    app.post(
      '/api/sql/:db/:schema/:table/history/:id/undo',
      {
        schema: {
          tags,
          summary:
            'Undo one change of this table from a row’s history: an update back (CanUpdate), an insert deleted ' +
            '(CanDelete), a deleted row restored (CanInsert); the undo is audited. A bulk change is undone as a ' +
            'whole, as a job: the answer carries its jobId, read with the bulk status call',
          params: historyEntryParams,
          response: { 200: envelope(undoResult) },
        },
      },
      async (request) => {
        const { result, message } = await undoRowChange(
          context,
          callerOf(request),
          refOf(request.params),
          request.params.id,
        );
        return success(result, message);
      },
    );
  };
}
