import { mutationOptions, useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { callDirectly, type RecentAuthRunner } from './recent-auth.ts';

/** GET /api/account/eotp/{email}: sends a code to confirm this address for Email sign-in (needs a recent sign-in;
 * at most once a minute). Answers the sentence saying where the code went. */
export function sendEmailCode(email: string): Promise<ApiResult<null>> {
  return apiGet(`/api/account/eotp/${encodeURIComponent(email)}`, { schema: z.null() });
}

export const sendEmailCodeMutationOptions = (run: RecentAuthRunner = callDirectly) =>
  mutationOptions({
    mutationKey: ['account', 'eotp'],
    mutationFn: async (email: string) => unwrap(await run(() => sendEmailCode(email))),
  });

export function useSendEmailCode(run?: RecentAuthRunner) {
  return useMutation(sendEmailCodeMutationOptions(run));
}
