import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { tableListItem, type TableListItem } from '#common/contract/sql.ts';
import { apiGet, type ApiResult } from '#web/api/client.ts';
import { unwrapData } from '#web/api/query.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import { databaseApiPath, queryString } from './paths.ts';

/** GET /api/sql/{db}: the tables the person's links allow, each with its columns, keys, indexes and the person's
 * rights on it; refresh reads the engine's catalog again. */
export function fetchTables(
  db: string,
  options: { refresh?: boolean; signal?: AbortSignal } = {},
): Promise<ApiResult<TableListItem[]>> {
  return apiGet(`${databaseApiPath(db)}${queryString({ refresh: options.refresh || undefined })}`, {
    schema: z.array(tableListItem),
    signal: options.signal,
  });
}

export const tablesQueryOptions = (db: string) =>
  queryOptions({
    queryKey: queryKeys.sql.tables(db),
    queryFn: async ({ signal }) => unwrapData(await fetchTables(db, { signal })),
    staleTime: 60_000,
  });

/** The tables of one database (the browser's list, the information modal and the editor all read this one). */
export function useTables(db: string) {
  return useQuery(tablesQueryOptions(db));
}
