import { queryOptions, useQuery } from '@tanstack/react-query';
import { verification, type Verification } from '#common/contract/account.ts';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';

/** GET /api/account/verify: the session's verification with its new sliding expiration (spec 000 §4 Session). */
export function fetchVerification(signal?: AbortSignal): Promise<ApiResult<Verification>> {
  return apiGet('/api/account/verify', { schema: verification, signal });
}

/** The verification as a query; the session provider calls fetchVerification itself, pages read useSession. */
export const verificationQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.account.verification(),
    queryFn: async ({ signal }) => unwrapData(await fetchVerification(signal)),
    staleTime: 0,
  });

export function useVerificationQuery() {
  return useQuery(verificationQueryOptions());
}
