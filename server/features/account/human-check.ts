import { accountApiMessages as am } from '#common/messages.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import type { AccountDeps } from './account-deps.ts';

/** Refuses a call whose human-check solution is invalid, expired or already used (400). */
export async function requireHumanCheck(deps: AccountDeps, token: string): Promise<void> {
  if (!(await deps.captcha.verify(token))) throw new ApiError(400, am.humanCheckFailed);
}
