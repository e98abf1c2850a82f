import { exportStarted } from '#common/contract/exports.ts';
import type { Filter } from '#common/contract/filter.ts';
import { apiPostEncoded, type ApiResult } from '#web/api/client.ts';
import { queryString, tableApiPath } from './paths.ts';
import type { ExportRequest } from './export-start.ts';

/** An export request under a filter document (issue 35). */
export type FilterExportRequest = ExportRequest & { where: Filter };

/** POST /api/sql/{db}/{schema}/{table}/query/export?orderBy= with `{ where, search, format, bom }`: starts an export of
 * exactly the rows the filter (and the search terms, when there are some) keeps; answers the job's id, as the export
 * call does. The start mutation (export-start.ts) takes this call when the view has a filter. */
export function postFilterExport(request: FilterExportRequest): Promise<ApiResult<{ id: string }>> {
  const query = queryString({ orderBy: request.sort });
  const body: { where: Filter; search?: ExportRequest['filter']; format: string; bom: boolean } = {
    where: request.where,
    format: request.format,
    bom: request.bom ?? false,
  };
  if (Object.keys(request.filter).length > 0) body.search = request.filter;
  return apiPostEncoded(`${tableApiPath(request)}/query/export${query}`, body, { schema: exportStarted });
}
