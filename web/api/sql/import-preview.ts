import { queryOptions, useQuery } from '@tanstack/react-query';
import { importPreview, type ImportPreview } from '#common/contract/imports.ts';
import { encodeSegment } from '#common/links.ts';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import { tableApiPath, type TableRef } from './paths.ts';

/** An uploaded import: its table and the id the upload answered. */
export interface ImportRef extends TableRef {
  id: string;
}

/** GET /api/sql/{db}/{schema}/{table}/import/{id}/preview: the first 50 rows as parsed, the file's and the table's
 * columns, the proposed mapping, what already blocks, and how the file was read. */
export function fetchImportPreview(ref: ImportRef, signal?: AbortSignal): Promise<ApiResult<ImportPreview>> {
  return apiGet(`${tableApiPath(ref)}/import/${encodeSegment(ref.id)}/preview`, {
    schema: importPreview,
    signal,
  });
}

export const importPreviewQueryOptions = (ref: ImportRef) =>
  queryOptions({
    queryKey: [...queryKeys.sql.table(ref), 'import', ref.id, 'preview'] as const,
    queryFn: async ({ signal }) => unwrapData(await fetchImportPreview(ref, signal)),
    // An upload never changes: its preview is read once.
    staleTime: Infinity,
    retry: false,
  });

/** The preview of an uploaded import (null: none yet). */
export function useImportPreview(ref: ImportRef | null) {
  return useQuery({
    ...importPreviewQueryOptions(ref ?? { db: '', schema: '', table: '', id: '' }),
    enabled: ref !== null,
  });
}
