import { mutationOptions, useMutation } from '@tanstack/react-query';
import type { ExportFormat } from '#common/contract/exports.ts';
import { exportStarted } from '#common/contract/exports.ts';
import type { Filter as FilterDocument } from '#common/contract/filter.ts';
import type { Filter } from '#common/contract/sql.ts';
import { apiPostEncoded, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { postFilterExport } from './filter-export.ts';
import { queryString, tableApiPath, type TableRef } from './paths.ts';

export interface ExportRequest extends TableRef {
  filter: Filter;
  /** The filter document (issue 35): set, the export is …/query/export's (filter-export.ts). */
  where?: FilterDocument | null;
  sort: string | null;
  format: ExportFormat;
  /** CSV only: a UTF-8 byte-order mark for Excel. */
  bom?: boolean;
}

/** POST /api/sql/{db}/{schema}/{table}/export?orderBy=&format=&bom=: starts an export of the rows matching the
 * filter in that order; answers the job's id (409 when one is already running for the person). */
export function postExport(request: ExportRequest): Promise<ApiResult<{ id: string }>> {
  const query = queryString({ orderBy: request.sort, format: request.format, bom: request.bom || undefined });
  return apiPostEncoded(`${tableApiPath(request)}/export${query}`, request.filter, { schema: exportStarted });
}

export const startExportMutationOptions = () =>
  mutationOptions({
    mutationKey: ['sql', 'export', 'start'],
    mutationFn: async (request: ExportRequest) => {
      const where = request.where;
      return unwrap(await (where ? postFilterExport({ ...request, where }) : postExport(request)));
    },
  });

export function useStartExport() {
  return useMutation(startExportMutationOptions());
}
