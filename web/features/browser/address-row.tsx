import { useEffect } from 'react';
import type { Row } from '#common/contract/sql.ts';
import { failureMessage } from '#web/api/failure-message.ts';
import { useRowByKey, type RowKey } from '#web/api/sql/row-by-key.ts';
import type { TableRef } from '#web/api/sql/paths.ts';

/*
 * The row an address names (`row=`, issue 37, docs/decisions/0067-foreign-key-labels.md): read by its key through
 * the filter call (row-by-key.ts), then opened in the table's editor. A key that names no row, or a read that fails
 * (a column that is not the table's, a value of the wrong type, a table the person may not read), is a sentence on
 * the card and the table is shown.
 */

/** What the card says when the address's row cannot be opened. */
export const addressRowMessages = {
  missing: (table: string, key: RowKey) =>
    `No row of ${table} has ${Object.entries(key)
      .map(([column, value]) => `${column} ${String(value)}`)
      .join(' and ')}: it may have been deleted. The table is shown instead.`,
  failed: 'The row in this address could not be read.',
};

/** Reads the address's row and hands it on once (`onRow`), or says why it cannot be opened (`onProblem`). */
export function AddressRow({
  tableRef,
  rowKey,
  onRow,
  onProblem,
}: {
  tableRef: TableRef;
  rowKey: RowKey;
  onRow: (row: Row) => void;
  onProblem: (sentence: string) => void;
}) {
  const read = useRowByKey(tableRef, rowKey);
  const { data, error, isSuccess, isError } = read;
  useEffect(() => {
    if (isSuccess) {
      if (data) onRow(data);
      else onProblem(addressRowMessages.missing(tableRef.table, rowKey));
    } else if (isError) {
      onProblem(
        `${failureMessage(error, addressRowMessages.failed).replace(/\.$/, '')}. The table is shown instead.`,
      );
    }
    // Once: the card unmounts this as soon as it has answered.
  }, [isSuccess, isError, data, error, onRow, onProblem, tableRef.table, rowKey]);
  return null;
}
