import { mutationOptions, useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { callDirectly, type RecentAuthRunner } from './recent-auth.ts';

/** GET /api/account/potp/{phone}: texts a code to confirm this number (E.164, +1 and ten digits) for Phone sign-in
 * (needs a recent sign-in; at most once a minute). */
export function sendPhoneCode(phone: string): Promise<ApiResult<null>> {
  return apiGet(`/api/account/potp/${encodeURIComponent(phone)}`, { schema: z.null() });
}

export const sendPhoneCodeMutationOptions = (run: RecentAuthRunner = callDirectly) =>
  mutationOptions({
    mutationKey: ['account', 'potp'],
    mutationFn: async (phone: string) => unwrap(await run(() => sendPhoneCode(phone))),
  });

export function useSendPhoneCode(run?: RecentAuthRunner) {
  return useMutation(sendPhoneCodeMutationOptions(run));
}
