import fs from 'node:fs';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { envelope } from '#common/contract/envelope.ts';
import {
  exportFileParams,
  exportFileQuery,
  exportParams,
  exportQuery,
  exportStarted,
  exportStatus,
  type ExportStatus,
} from '#common/contract/exports.ts';
import { FILTER_CALL_RULES, filterExportBody } from '#common/contract/filter.ts';
import { filterBody, searchQuery, tableParams, type TableParams } from '#common/contract/sql.ts';
import { exportMessages as em } from '#common/messages.ts';
import type { DatabaseRegistry } from '#server/engines/database-registry.ts';
import { acceptEncodedBodies } from '#server/plugins/body-decoding.ts';
import { callerOf, refOf } from '#server/access/table-access.ts';
import { success } from '#server/plugins/error-envelope.ts';
import { requireSignedIn } from '#server/plugins/session.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { createExportService, type ExportContext } from './service.ts';

/** A status as the envelope: a failed or cancelled export is `isSuccess: false` with its reason as the message
 * (the spec's client shows it), the status itself still in `data`. */
function statusAnswer(status: ExportStatus) {
  const ended = status.state === 'failed' || status.state === 'cancelled';
  return { isSuccess: !ended, data: status, message: ended ? status.error : null };
}

/**
 * RFC 6266: an ASCII fallback in `filename` (anything else, quotes and backslashes as _) and the real name in
 * `filename*` (RFC 5987 UTF-8 percent-encoding).
 */
export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** Export start, status and cancel (spec 000 §7) and the download link, as one plugin with its job runner. */
export function exportRoutes(
  context: {
    store: AppStore;
    databases: DatabaseRegistry;
    config: { exportDir: string; redisUrl: string | null };
    /** The app's clock (sessions live by it). */
    clock?: () => Date;
  },
  options: Pick<ExportContext, 'job'> = {},
): FastifyPluginAsyncZod {
  return async (app) => {
    const service = await createExportService({
      store: context.store,
      databases: context.databases,
      exportDir: context.config.exportDir,
      redisUrl: context.config.redisUrl,
      log: app.log,
      ...(context.clock ? { now: context.clock } : {}),
      ...options,
    });
    app.addHook('onClose', () => service.close());
    acceptEncodedBodies(app);
    const tags = ['exports'];
    const signedIn = { onRequest: requireSignedIn };

    app.post(
      '/api/sql/:db/:schema/:table/export',
      {
        ...signedIn,
        config: { encodedBody: 'filter' },
        schema: {
          tags,
          summary:
            'Start an export of the rows matching a filter, in the asked order (?format=csv|jsonl|xlsx, &bom=true for Excel); answers the job id at once',
          params: tableParams,
          querystring: exportQuery,
          body: filterBody,
          response: { 202: envelope(exportStarted) },
        },
      },
      async (request, reply) => {
        const started = await service.start(callerOf(request), refOf(request.params), {
          filter: request.body,
          orderBy: request.query.orderBy ?? null,
          format: request.query.format,
          bom: request.query.bom,
        });
        return reply.code(202).send(success(started, em.started));
      },
    );

    app.post(
      '/api/sql/:db/:schema/:table/query/export',
      {
        ...signedIn,
        config: { encodedBody: 'query' },
        schema: {
          tags,
          summary:
            'Start an export of exactly the rows a filter document keeps (and the search terms, when given), in the ' +
            'asked order (?orderBy=); format and bom in the body; answers the job id at once, then status, cancel ' +
            'and download as for …/export',
          description: FILTER_CALL_RULES,
          params: tableParams,
          querystring: searchQuery,
          body: filterExportBody,
          response: { 202: envelope(exportStarted) },
        },
      },
      async (request, reply) => {
        const started = await service.start(callerOf(request), refOf(request.params), {
          filter: request.body.search ?? {},
          where: request.body.where,
          orderBy: request.query.orderBy ?? null,
          format: request.body.format,
          bom: request.body.bom,
        });
        return reply.code(202).send(success(started, em.started));
      },
    );

    app.get(
      '/api/sql/:db/:schema/:table/export/:id',
      {
        ...signedIn,
        schema: {
          tags,
          summary:
            'The export’s status; when done, data is the file name and url a single-use download link (5 minutes)',
          params: exportParams,
          response: { 200: envelope(exportStatus) },
        },
      },
      async (request) =>
        statusAnswer(await service.status(callerOf(request), refOf(request.params), request.params.id)),
    );

    const cancel = async (request: FastifyRequest<{ Params: TableParams & { id: string } }>) => {
      const status = await service.cancel(callerOf(request), refOf(request.params), request.params.id);
      return success(status, status.state === 'cancelled' ? em.cancelled : em.alreadyEnded);
    };
    const cancelSchema = {
      tags,
      summary: 'Cancel an export that is queued or running (its partial file is deleted)',
      description:
        'Answers the status: state cancelled, or, when the export had already ended (done or failed, a Cancel ' +
        'that came too late), the state it ended in with the message that there was nothing to cancel. Read the ' +
        'status for a finished export’s download link.',
      params: exportParams,
      response: { 200: envelope(exportStatus) },
    };
    app.delete('/api/sql/:db/:schema/:table/export/:id', { ...signedIn, schema: cancelSchema }, cancel);
    app.post('/api/sql/:db/:schema/:table/export/:id/cancel', { ...signedIn, schema: cancelSchema }, cancel);

    app.get(
      '/api/exports/:id/file',
      {
        // Opened as a plain link without the bearer: it must not replace the session's anti-forgery cookie with one
        // bound to nobody (the next change of the signed-in page would be refused).
        config: { keepsXsrfCookie: true },
        schema: {
          tags,
          summary:
            'Download a finished export with the link its status gave (no bearer header needed; works once, for 5 minutes, for its owner only)',
          params: exportFileParams,
          querystring: exportFileQuery,
        },
      },
      async (request, reply) => {
        const download = await service.download(
          request.account,
          request.params.id,
          request.query.t,
          request.ip,
        );
        return reply
          .header('content-type', download.contentType)
          .header('content-length', download.size)
          .header('content-disposition', contentDisposition(download.fileName))
          .header('cache-control', 'no-store')
          .header('x-content-type-options', 'nosniff')
          .send(fs.createReadStream(download.file));
      },
    );
  };
}
