import { createHash } from 'node:crypto';
import type { CellValue, Row, Table } from '#common/contract/sql.ts';
import { tablePath } from '#common/links.ts';
import { rowKey } from '#server/engines/row-writes.ts';
import type { TableRef } from '#server/access/policy.ts';
import type { AuditEntry } from '#server/store/audit.ts';

/*
 * Every data change leaves an audit entry: who, when, which table, which key, the row before and after (written as
 * an intent and confirmed: audit-intents.ts). Binary and image values are kept as a note of their length and
 * SHA-256 instead of the bytes, so a photo does not put megabytes into the log while a change of it still shows.
 */

export type DataChange = 'insert' | 'update' | 'delete';

const isBinary = (table: Table, name: string) =>
  table.columns.some((c) => c.name === name && (c.typeGroup === 'Binary' || c.typeGroup === 'image'));

/** Whether an audited value is a shortened binary value (the bytes themselves were not kept). */
export const isShortenedBinary = (value: unknown): boolean =>
  typeof value === 'string' && /^binary, \d+ bytes, sha256 [0-9a-f]{64}$/.test(value);

/** A row as the audit keeps it: binary values shortened to "binary, N bytes, sha256 …". */
export function auditedRow(table: Table, row: Row | null): Row | null {
  if (!row) return null;
  const kept: Row = {};
  for (const [name, value] of Object.entries(row)) {
    if (typeof value === 'string' && isBinary(table, name)) {
      const bytes = Buffer.from(value, 'base64');
      const digest = createHash('sha256').update(bytes).digest('hex');
      kept[name] = `binary, ${bytes.length} bytes, sha256 ${digest}`;
    } else {
      kept[name] = value;
    }
  }
  return kept;
}

/** The values of the row's key (identity, else guid, else primary key); empty when the table has none. */
export function keyOf(table: Table, row: Row): Row {
  return Object.fromEntries(rowKey(table).map((name) => [name, row[name] ?? null]));
}

/** Who changed which table: what every data change's entry names besides the rows. */
export interface ChangeAuthor {
  userId: number;
  address: string | null;
  ref: TableRef;
  table: Table;
}

/** The entry `data.insert`, `data.update` or `data.delete` of one row of a table. */
export function dataChangeEntry(
  author: ChangeAuthor,
  change: { change: DataChange; before: Row | null; after: Row | null },
): AuditEntry {
  const { ref, table } = author;
  const keySource = change.after ?? change.before ?? {};
  return {
    userId: author.userId,
    action: `data.${change.change}`,
    target: tablePath(ref.database, ref.schema, ref.table),
    detail: {
      key: auditedRow(table, keyOf(table, keySource)),
      before: auditedRow(table, change.before),
      after: auditedRow(table, change.after),
    },
    address: author.address,
  };
}

export const sameValue = (a: CellValue | undefined, b: CellValue | undefined) =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The columns of an audited row whose values differ in `current` (a row as the database holds it now); columns
 * the table no longer has are left out. */
export function changedColumns(table: Table, current: Row, audited: Row): string[] {
  const now = auditedRow(table, current) ?? {};
  return Object.keys(audited).filter((name) => name in now && !sameValue(now[name], audited[name]));
}

/**
 * A bulk update's audited row keeps in `after` only the columns the update changed (decision 0068, "Speed"); older
 * records, and other writers of the same batches, keep the whole row. Either way the whole row after is the row before
 * with `after` over it: what every reader of the records (the undo, the restart's settling, the audit page) uses.
 */
export function wholeAfter(before: Row | null, after: Row | null): Row | null {
  return before && after ? { ...before, ...after } : after;
}
