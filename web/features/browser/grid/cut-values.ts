import {
  cutLengthsOf,
  type CellValue,
  type Column,
  type Row,
  type TableListItem,
} from '#common/contract/sql.ts';
import { tableOfId } from '#common/links.ts';
import { failureMessage } from '#web/api/failure-message.ts';
import { fetchRowByKey, rowKeyOf } from '#web/api/sql/row-by-key.ts';
import { base64ByteCount, byteSize, copyText } from './cell-format.ts';

/*
 * Values a page holds cut (docs/decisions/0066-cut-values.md): the grid asks its pages with ?cutText=, and a row
 * where something was cut says, under $cut, each cut value's whole length (characters for text and JSON, bytes for
 * binary and images). Here: that length for a cell, how it is written, and the whole value read again by the row's
 * key when a person copies a cut cell. Plain functions: the grid calls them per cell, so no hooks.
 */

/** Sentences of cut values (our own; the spec has none). */
export const cutMessages = {
  noKey:
    'This value is cut for the page, and the table has no key to read it whole by, so it was not copied.',
  gone: 'This row is no longer in the table, so its whole value could not be copied. Reload the page.',
  readFailed: 'The whole value could not be read, so it was not copied.',
  characters: (count: number) =>
    count === 1 ? '1 character' : `${count.toLocaleString('en-US')} characters`,
} as const;

/** The whole length of a cell the page holds cut, or undefined when it holds it whole. */
export const cutLengthOf = (row: Row, column: string): number | undefined => cutLengthsOf(row)?.[column];

const isBytes = (column: Pick<Column, 'typeGroup'>) =>
  column.typeGroup === 'Binary' || column.typeGroup === 'image';

/** A cut value's whole size in words: "1.0 MB" for binary and images, "1,048,576 characters" for text. */
export function wholeSizeText(column: Pick<Column, 'typeGroup'>, length: number): string {
  return isBytes(column) ? byteSize(length) : cutMessages.characters(length);
}

/** The same, short enough for a cell: "1.0 MB", "12K chars", "1.0M chars". */
export function shortSizeText(column: Pick<Column, 'typeGroup'>, length: number): string {
  if (isBytes(column)) return byteSize(length);
  if (length < 1000) return `${length} chars`;
  if (length < 1_000_000) return `${Math.round(length / 1000)}K chars`;
  return `${(length / 1_000_000).toFixed(1)}M chars`;
}

/** Whether `whole` is the whole of a value the page holds cut (its start, at its whole length): then the value did not
 * change since the page was read, it was only cut. */
export function isWholeOf(
  column: Pick<Column, 'typeGroup'>,
  cut: CellValue,
  whole: CellValue,
  length: number,
) {
  if (typeof cut !== 'string' || typeof whole !== 'string' || !whole.startsWith(cut)) return false;
  return (isBytes(column) ? base64ByteCount(whole) : whole.length) === length;
}

/** A copy that could not be made, with a sentence that says why (the copy toast shows it). */
export class CopyRefusal extends Error {}

/**
 * What copying a cell puts on the clipboard: its value (copyText) when the page holds it whole; when the page holds it
 * cut, the whole value, read again by the row's key first (so the copy is never a cut value). A value that cannot be
 * read whole is not copied: the promise fails with a CopyRefusal that says why.
 */
export function wholeCopyText(table: TableListItem, row: Row, column: Column): string | Promise<string> {
  const value = row[column.name] ?? null;
  if (cutLengthOf(row, column.name) === undefined) return copyText(column, value);
  const names = tableOfId(table.id);
  const key = rowKeyOf(table, row);
  if (!names || !key) return Promise.reject(new CopyRefusal(cutMessages.noKey));
  const ref = { db: names.database, schema: table.schema, table: table.name };
  return fetchRowByKey(ref, key).then(
    (whole) => {
      if (!whole) throw new CopyRefusal(cutMessages.gone);
      return copyText(column, whole[column.name] ?? null);
    },
    (error: unknown) => {
      throw new CopyRefusal(failureMessage(error, cutMessages.readFailed));
    },
  );
}
