import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope } from '#common/contract/envelope.ts';
import { tableParams } from '#common/contract/sql.ts';
import {
  savedView,
  VIEW_NAME_MAX_LENGTH,
  VIEWS_PER_TABLE_MAX,
  viewBody,
  viewDeleteBody,
  viewList,
} from '#common/contract/views.ts';
import { callerOf, refOf } from '#server/access/table-access.ts';
import { acceptEncodedBodies } from '#server/plugins/body-decoding.ts';
import { success } from '#server/plugins/error-envelope.ts';
import { requireSignedIn } from '#server/plugins/session.ts';
import { deleteView, listViews, saveView, type ViewsContext } from './views-service.ts';

/** The rules every views call follows, for their OpenAPI descriptions. */
const VIEW_RULES =
  'A view holds no rights: it is answered as the caller may see it, against the table as it is now (columns the ' +
  'table no longer has are left out and named in dropped; columns the caller may not read are left out; a filter or ' +
  'sort that no longer fits is dropped, with a sentence in problems). The caller must be able to read the table, as ' +
  'for its pages. The body travels as the data calls’ bodies do: JSON, or base64(encodeURIComponent(JSON)) as ' +
  'text/plain.';

/** Saved views of a table (issue 36): list, save, delete. */
export function viewsRoutes(context: ViewsContext): FastifyPluginAsyncZod {
  return async (app) => {
    // Signed in first, before a body is read: anonymous callers learn nothing else.
    app.addHook('onRequest', requireSignedIn);
    acceptEncodedBodies(app);
    const tags = ['views'];
    const view = { encodedBody: 'view' as const };

    app.get(
      '/api/sql/:db/:schema/:table/views',
      {
        schema: {
          tags,
          summary:
            'The views of a table the caller may open: their own, those shared with everyone, those shared with a ' +
            'role they are a member of (another person’s private view never, administrators included)',
          description: VIEW_RULES,
          params: tableParams,
          response: { 200: envelope(viewList) },
        },
      },
      async (request) => success(await listViews(context, callerOf(request), refOf(request.params))),
    );
    app.post(
      '/api/sql/:db/:schema/:table/views',
      {
        config: view,
        schema: {
          tags,
          summary:
            'Create (Id 0, the caller its author) or change a view (its author, or an administrator who may open ' +
            'it); answers the view as saved',
          description:
            `${VIEW_RULES} A name has at most ${VIEW_NAME_MAX_LENGTH} characters and is unique per table and ` +
            `author (409); at most ${VIEWS_PER_TABLE_MAX} views per table and author. Columns, the sort column and ` +
            'the filter must fit the table now. shared: "private", "everyone" (all who may read the table) or ' +
            '{ "roleIds": [...] }: roles the caller is a member of (an administrator: any role). Audited.',
          params: tableParams,
          body: viewBody,
          response: { 200: envelope(savedView) },
        },
      },
      async (request) =>
        success(await saveView(context, callerOf(request), refOf(request.params), request.body)),
    );
    app.post(
      '/api/sql/:db/:schema/:table/views/delete',
      {
        config: view,
        schema: {
          tags,
          summary: 'Delete a view (its author, or an administrator who may open it); audited',
          params: tableParams,
          body: viewDeleteBody,
          response: { 200: envelope(z.null()) },
        },
      },
      async (request) => {
        await deleteView(context, callerOf(request), refOf(request.params), request.body.Id);
        return success(null);
      },
    );
  };
}
