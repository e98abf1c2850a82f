import { mutationOptions, useMutation } from '@tanstack/react-query';
import { importStatus, type ImportRunBody, type ImportStatus } from '#common/contract/imports.ts';
import { encodeSegment } from '#common/links.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { tableApiPath } from './paths.ts';
import type { ImportRef } from './import-preview.ts';

export interface ImportRunRequest extends ImportRef {
  body: ImportRunBody;
}

/** POST /api/sql/{db}/{schema}/{table}/import/{id}/run: queues the dry run (or the run that writes) with a mapping
 * and a mode; answers 202 and the status, 400 naming a mapping's problem, 403 without the mode's rights, 409 while
 * it runs (and, until the writing run exists, for dryRun: false). */
export function postImportRun(request: ImportRunRequest): Promise<ApiResult<ImportStatus>> {
  return apiPost(`${tableApiPath(request)}/import/${encodeSegment(request.id)}/run`, request.body, {
    schema: importStatus,
  });
}

export const importRunMutationOptions = () =>
  mutationOptions({
    mutationKey: ['sql', 'import', 'run'],
    mutationFn: async (request: ImportRunRequest) => unwrap(await postImportRun(request)),
  });

export function useImportRun() {
  return useMutation(importRunMutationOptions());
}
