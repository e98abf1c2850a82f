import { mutationOptions, useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';

/** GET /api/account/logout: ends the current session on the server (signed-out callers get the same answer). */
export function fetchLogout(): Promise<ApiResult<null>> {
  return apiGet('/api/account/logout', { schema: z.null() });
}

export const logoutMutationOptions = () =>
  mutationOptions({
    mutationKey: ['account', 'logout'],
    mutationFn: async () => unwrap(await fetchLogout()),
  });

export function useLogout() {
  return useMutation(logoutMutationOptions());
}
