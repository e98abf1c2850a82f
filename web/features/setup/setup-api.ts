import { setupStatus } from '#common/contract/setup.ts';
import type { SetupRequest } from '#common/contract/setup.ts';
import { apiGet, apiPost } from '#web/api/client.ts';
import type { ApiResult } from '#web/api/client.ts';

const SETUP_PATH = '/api/setup';
/** The query key of the setup status, dropped once the administrator exists. */
export const SETUP_STATUS_KEY = ['setup', 'status'] as const;

/** GET /api/setup: whether the first administrator still has to be created. */
export function fetchSetupStatus(signal?: AbortSignal): Promise<ApiResult<{ required: boolean }>> {
  return apiGet(SETUP_PATH, { schema: setupStatus, signal });
}

/** POST /api/setup: creates the first administrator with the one-time token. */
export function submitSetup(request: SetupRequest): Promise<ApiResult<unknown>> {
  return apiPost<unknown>(SETUP_PATH, request);
}
