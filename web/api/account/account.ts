import { mutationOptions, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { user, type User, type UserUpsertRequest } from '#common/contract/account.ts';
import { apiGet, apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap, unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';

/** GET /api/account: the signed-in user (details in user_Details[0], image in user_Images[0]). */
export function fetchAccount(signal?: AbortSignal): Promise<ApiResult<User>> {
  return apiGet('/api/account', { schema: user, signal });
}

/** POST /api/account: the person's own names, preferred method and image; answers the saved user. */
export function postAccount(request: UserUpsertRequest): Promise<ApiResult<User>> {
  return apiPost('/api/account', request, { schema: user });
}

export const accountQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.account.user(),
    queryFn: async ({ signal }) => unwrapData(await fetchAccount(signal)),
  });

export function useAccount() {
  return useQuery(accountQueryOptions());
}

export const updateAccountMutationOptions = () =>
  mutationOptions({
    mutationKey: ['account', 'update'],
    mutationFn: async (request: UserUpsertRequest) => unwrap(await postAccount(request)),
  });

/** Saves the profile and puts the saved user in the account query, so the page shows what the server kept. */
export function useUpdateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    ...updateAccountMutationOptions(),
    onSuccess: (answer) => queryClient.setQueryData(queryKeys.account.user(), answer.data),
  });
}
