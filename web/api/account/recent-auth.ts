import type { ApiResult } from '#web/api/client.ts';

/**
 * How a call that needs a recent sign-in is run. The account page passes useReauth()'s `run` (it asks for the
 * password on 403 'Confirm your password to continue.' and tries once more); web/api cannot import a feature, so
 * the hooks of these calls take the runner as a parameter and default to calling straight through.
 */
export type RecentAuthRunner = <T>(call: () => Promise<ApiResult<T>>) => Promise<ApiResult<T>>;

/** Calls straight through (tests, and callers that handle 403 themselves). */
export const callDirectly: RecentAuthRunner = (call) => call();
