import { mutationOptions, useMutation } from '@tanstack/react-query';
import { exportStatus, type ExportStatus } from '#common/contract/exports.ts';
import { encodeSegment } from '#common/links.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import type { ExportJobRef } from './export-status.ts';
import { tableApiPath } from './paths.ts';

/** POST /api/sql/{db}/{schema}/{table}/export/{id}/cancel: stops a queued or running export (its partial file is
 * deleted); answers the final status. */
export function postCancelExport(job: ExportJobRef): Promise<ApiResult<ExportStatus>> {
  return apiPost(`${tableApiPath(job)}/export/${encodeSegment(job.id)}/cancel`, {}, { schema: exportStatus });
}

export const cancelExportMutationOptions = () =>
  mutationOptions({
    mutationKey: ['sql', 'export', 'cancel'],
    mutationFn: async (job: ExportJobRef) => unwrap(await postCancelExport(job)),
  });

export function useCancelExport() {
  return useMutation(cancelExportMutationOptions());
}
