import { mutationOptions, useMutation } from '@tanstack/react-query';
import { bulkStarted } from '#common/contract/bulk.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import type { BulkRequest } from './bulk-preview.ts';
import { tableApiPath } from './paths.ts';

/** POST /api/sql/{db}/{schema}/{table}/bulk: starts the previewed change with the count the person confirmed;
 * answers the job's id (202), or 409 with `{ count, capped }` (the failure's details) when the rows changed since. */
export function postBulkRun(
  request: BulkRequest & { expectedCount: number },
): Promise<ApiResult<{ id: string }>> {
  return apiPost(
    `${tableApiPath(request)}/bulk`,
    { ...request.body, expectedCount: request.expectedCount },
    { schema: bulkStarted },
  );
}

export const bulkRunMutationOptions = () =>
  mutationOptions({
    mutationKey: ['sql', 'bulk', 'run'],
    mutationFn: async (request: BulkRequest & { expectedCount: number }) =>
      unwrap(await postBulkRun(request)),
  });

export function useBulkRun() {
  return useMutation(bulkRunMutationOptions());
}
