import { mutationOptions, useMutation } from '@tanstack/react-query';
import { encodeSegment } from '#common/links.ts';
import { requestHeaders, saveDownload, sessionWatch, type ApiResult } from '#web/api/client.ts';
import { unwrap } from '#web/api/query.ts';
import { tableApiPath } from './paths.ts';
import type { ImportRef } from './import-preview.ts';

const REPORT_FAILED = 'The report could not be downloaded: try again.';

/** GET /api/sql/{db}/{schema}/{table}/import/{id}/report: every failure of the last run as CSV (row, column,
 * message). The call needs the bearer header, so it is read here and handed to the browser as a download. */
export async function fetchImportReport(ref: ImportRef): Promise<ApiResult<{ blob: Blob; name: string }>> {
  const path = `${tableApiPath(ref)}/import/${encodeSegment(ref.id)}/report`;
  const answered = sessionWatch();
  let response: Response;
  try {
    response = await fetch(path, {
      headers: requestHeaders('GET', path, null, 'text/csv'),
      credentials: 'same-origin',
    });
  } catch {
    return { isSuccess: false, data: null, message: REPORT_FAILED };
  }
  answered(response.status);
  if (!response.ok) {
    let message = REPORT_FAILED;
    try {
      const body = (await response.json()) as { message?: unknown };
      if (typeof body.message === 'string' && body.message) message = body.message;
    } catch {
      // Not our envelope: the generic sentence.
    }
    return { isSuccess: false, data: null, message, status: response.status };
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `import-${ref.id}-report.csv`;
  return { isSuccess: true, data: { blob: await response.blob(), name }, message: null };
}

export const importReportMutationOptions = () =>
  mutationOptions({
    mutationKey: ['sql', 'import', 'report'],
    mutationFn: async (ref: ImportRef) => {
      const { data } = unwrap(await fetchImportReport(ref));
      saveDownload(data.blob, data.name);
      return data.name;
    },
  });

/** Downloads an import's full report as a file. */
export function useImportReport() {
  return useMutation(importReportMutationOptions());
}
