import { queryOptions, useQuery } from '@tanstack/react-query';
import { transportMessages } from '#common/messages.ts';
import type { ApiResult } from '#web/api/client.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';

/** GET /api/captcha: the ALTCHA challenge. The widget fetches it itself from this address (its `challenge`
 * attribute); the answer is ALTCHA's own JSON, not the envelope. */
export const CAPTCHA_CHALLENGE_PATH = '/api/captcha';

/** An ALTCHA challenge as the widget reads it (checked loosely: the widget validates the rest). */
export interface CaptchaChallenge {
  algorithm: string;
  challenge: string;
  salt: string;
  signature: string;
  [field: string]: unknown;
}

function isChallenge(value: unknown): value is CaptchaChallenge {
  if (typeof value !== 'object' || value === null) return false;
  const fields = value as Record<string, unknown>;
  return ['algorithm', 'challenge', 'salt', 'signature'].every((name) => typeof fields[name] === 'string');
}

/** Fetches a challenge, for a widget given the object instead of the address; failures follow the spec's rules. */
export async function fetchCaptchaChallenge(signal?: AbortSignal): Promise<ApiResult<CaptchaChallenge>> {
  const fail = (message: string | null): ApiResult<CaptchaChallenge> => ({
    isSuccess: false,
    data: null,
    message: message || transportMessages.GET,
  });
  let response: Response;
  try {
    response = await fetch(CAPTCHA_CHALLENGE_PATH, { headers: { Accept: 'application/json' }, signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    return fail(error instanceof Error ? error.message : null);
  }
  let body: unknown;
  try {
    body = JSON.parse(await response.text()) as unknown;
  } catch {
    return fail(null);
  }
  if (!response.ok || !isChallenge(body)) {
    const message = typeof body === 'object' && body !== null && 'message' in body ? body.message : null;
    return fail(typeof message === 'string' ? message : null);
  }
  return { isSuccess: true, data: body, message: null };
}

/** A fresh challenge each time it is asked for: a solution works once. */
export const captchaQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.account.captcha(),
    queryFn: async ({ signal }) => unwrapData(await fetchCaptchaChallenge(signal)),
    staleTime: 0,
    gcTime: 0,
  });

export function useCaptchaChallenge() {
  return useQuery(captchaQueryOptions());
}
