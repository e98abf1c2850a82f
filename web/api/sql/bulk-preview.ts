import { mutationOptions, useMutation } from '@tanstack/react-query';
import { bulkPreview, type BulkPreview, type BulkPreviewBody } from '#common/contract/bulk.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { tableApiPath, type TableRef } from './paths.ts';

/** A bulk change asked about: the table and the body of the bulk calls. */
export interface BulkRequest extends TableRef {
  body: BulkPreviewBody;
}

/** POST /api/sql/{db}/{schema}/{table}/bulk/preview: how many rows a bulk change takes (exact up to 1,000,000), the
 * first 20 before and after, and for a delete the foreign keys pointing at the table; changes nothing. */
export function postBulkPreview(request: BulkRequest): Promise<ApiResult<BulkPreview>> {
  return apiPost(`${tableApiPath(request)}/bulk/preview`, request.body, { schema: bulkPreview });
}

export const bulkPreviewMutationOptions = () =>
  mutationOptions({
    mutationKey: ['sql', 'bulk', 'preview'],
    mutationFn: async (request: BulkRequest) => unwrap(await postBulkPreview(request)),
  });

export function useBulkPreview() {
  return useMutation(bulkPreviewMutationOptions());
}
