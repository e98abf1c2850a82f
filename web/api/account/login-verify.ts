import { mutationOptions, useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  verifyAnswer,
  type PreSignIn,
  type Verification,
  type VerifyRequest,
} from '#common/contract/account.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';

export type VerifyAnswer = z.infer<typeof verifyAnswer>;

/** POST /api/account/login/verify: a code for the pre-sign-in key; answers the session's verification, or, in a
 * forgot-password recovery of an account with a second step beyond email, the next PreSignIn step. */
export function postLoginVerify(request: VerifyRequest): Promise<ApiResult<VerifyAnswer>> {
  return apiPost('/api/account/login/verify', request, { schema: verifyAnswer, signInStep: true });
}

/** Whether the answer is a session (else it is the next step of a recovery). */
export function isVerification(answer: VerifyAnswer): answer is Verification {
  return 'token' in answer;
}

/** The next step of a recovery, when the answer is one. */
export function nextStepOf(answer: VerifyAnswer): PreSignIn | null {
  return isVerification(answer) ? null : answer;
}

export const loginVerifyMutationOptions = () =>
  mutationOptions({
    mutationKey: ['account', 'login', 'verify'],
    mutationFn: async (request: VerifyRequest) => unwrap(await postLoginVerify(request)),
  });

export function useLoginVerify() {
  return useMutation(loginVerifyMutationOptions());
}
