import { useContext, useMemo } from 'react';
import { accountApiMessages } from '#common/messages.ts';
import type { ApiResult } from '#web/api/client.ts';
import { ReauthContext } from './reauth-context.ts';

/** Whether an answer is the server's "needs a recent proof" refusal (403 'Confirm your password to continue.'). The
 * client's answer carries the sentence, not the status; the sentence is the server's own constant. */
export function needsReauth(answer: ApiResult<unknown>): boolean {
  return !answer.isSuccess && answer.message === accountApiMessages.reauthRequired;
}

/** Performs an action that may need a recent proof; see useReauth. */
export type ReauthRun = <T>(action: () => Promise<ApiResult<T>>) => Promise<ApiResult<T>>;

/**
 * Runs calls that need a recent sign-in (requireRecentAuth on the server): `run(action)` performs the action; when
 * the server refuses it for want of a recent proof, the person confirms with their password (or authenticator app)
 * in a modal, and the action is tried once more. Cancelled, it resolves with the original refusal. Only inside
 * ReauthProvider (the account page mounts it).
 *
 * The answer is `run` itself, also reachable as `.run`, so both `const run = useReauth()` and
 * `const { run } = useReauth()` read naturally.
 */
export function useReauth(): ReauthRun & { run: ReauthRun } {
  const prompt = useContext(ReauthContext);
  if (!prompt) throw new Error('useReauth is used outside ReauthProvider.');
  return useMemo(() => {
    const run: ReauthRun = async <T>(action: () => Promise<ApiResult<T>>): Promise<ApiResult<T>> => {
      const first = await action();
      if (!needsReauth(first)) return first;
      if (!(await prompt.confirm())) return first;
      return action();
    };
    return Object.assign(run, { run });
  }, [prompt]);
}
