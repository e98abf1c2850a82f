import { expect } from 'vitest';
import { ROW_VERSION_KEY, type Row } from '#common/contract/sql.ts';

/*
 * Rows as the data API answers them carry their version (decision 0045): helpers for tests that compare rows.
 */

/** A row as the data API answers it: these columns, and a version beside them. */
export const answered = (row: Row): Record<string, unknown> => ({
  ...row,
  [ROW_VERSION_KEY]: expect.stringMatching(/^[\w-]{16}$/),
});

/** A row the data API answered, without its version: its columns alone. */
export function withoutVersion(row: Row): Row {
  const { [ROW_VERSION_KEY]: _version, ...columns } = row;
  return columns;
}
