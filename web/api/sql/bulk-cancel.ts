import { mutationOptions, useMutation } from '@tanstack/react-query';
import { bulkStatus, type BulkStatus } from '#common/contract/bulk.ts';
import { encodeSegment } from '#common/links.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import type { BulkJobRef } from './bulk-status.ts';
import { tableApiPath } from './paths.ts';

/** POST /api/sql/{db}/{schema}/{table}/bulk/{id}/cancel: stops the job after the batch in hand (the rows changed
 * before stay, audited); answers its status. */
export function postBulkCancel(job: BulkJobRef): Promise<ApiResult<BulkStatus>> {
  return apiPost(`${tableApiPath(job)}/bulk/${encodeSegment(job.id)}/cancel`, {}, { schema: bulkStatus });
}

export const bulkCancelMutationOptions = () =>
  mutationOptions({
    mutationKey: ['sql', 'bulk', 'cancel'],
    mutationFn: async (job: BulkJobRef) => unwrap(await postBulkCancel(job)),
  });

export function useBulkCancel() {
  return useMutation(bulkCancelMutationOptions());
}
