import { mutationOptions, useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import type { ResendRequest } from '#common/contract/account.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';

/** POST /api/account/login/resend: another code by Email or Phone (the server locks it for 60 s after each send). */
export function postLoginResend(request: ResendRequest): Promise<ApiResult<null>> {
  return apiPost('/api/account/login/resend', request, { schema: z.null(), signInStep: true });
}

export const loginResendMutationOptions = () =>
  mutationOptions({
    mutationKey: ['account', 'login', 'resend'],
    mutationFn: async (request: ResendRequest) => unwrap(await postLoginResend(request)),
  });

export function useLoginResend() {
  return useMutation(loginResendMutationOptions());
}
