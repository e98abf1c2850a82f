import { mutationOptions, useMutation } from '@tanstack/react-query';
import { importStatus, type ImportStatus } from '#common/contract/imports.ts';
import { encodeSegment } from '#common/links.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { tableApiPath } from './paths.ts';
import type { ImportRef } from './import-preview.ts';

/** POST /api/sql/{db}/{schema}/{table}/import/{id}/cancel: stops the run under way after the batch in hand. */
export function postImportCancel(ref: ImportRef): Promise<ApiResult<ImportStatus>> {
  return apiPost(`${tableApiPath(ref)}/import/${encodeSegment(ref.id)}/cancel`, {}, { schema: importStatus });
}

export const importCancelMutationOptions = () =>
  mutationOptions({
    mutationKey: ['sql', 'import', 'cancel'],
    mutationFn: async (ref: ImportRef) => unwrap(await postImportCancel(ref)),
  });

export function useImportCancel() {
  return useMutation(importCancelMutationOptions());
}
