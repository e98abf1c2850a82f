import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { passkeySummary, type PasskeySummary } from '#common/contract/passkeys.ts';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';

/** GET /api/account/passkeys: the signed-in account's passkeys, oldest first. */
export function fetchPasskeys(signal?: AbortSignal): Promise<ApiResult<PasskeySummary[]>> {
  return apiGet('/api/account/passkeys', { schema: z.array(passkeySummary), signal });
}

/** Under the account area's key, so refreshing the account (after a method is verified) refreshes these too. */
export const passkeysQueryKey = () => [...queryKeys.account.all, 'passkeys'] as const;

export const passkeysQueryOptions = () =>
  queryOptions({
    queryKey: passkeysQueryKey(),
    queryFn: async ({ signal }) => unwrapData(await fetchPasskeys(signal)),
  });

export function usePasskeys() {
  return useQuery(passkeysQueryOptions());
}
