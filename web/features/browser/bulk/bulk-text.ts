import type { OnDeleteRule } from '#common/contract/sql.ts';

/* The bulk change's sentences and numbers as a person reads and types them (issue 38). */

/** The most keys a hand-made selection sends: the contract's BULK_KEYS_LIMIT (a test keeps them equal), here so
 * the bar does not load the contract's schemas. */
export const BULK_KEYS_MOST = 1000;

/** Above this count the person types the count to run the change (the rule). */
export const TYPED_COUNT_FROM = 1000;

/** "1,234", or "1,000,000+" when the server stopped counting. */
export const countText = (count: number, capped = false) =>
  `${count.toLocaleString('en')}${capped ? '+' : ''}`;

/** "1 row", "1,234 rows", "1,000,000+ rows". */
export const rowsText = (count: number, capped = false) =>
  `${countText(count, capped)} ${count === 1 && !capped ? 'row' : 'rows'}`;

/** Whether what the person typed is the count as shown: its digits, with or without the commas (and the +). */
export function typedCountMatches(typed: string, count: number): boolean {
  const digits = typed.trim().replace(/[,\s+]/g, '');
  return /^\d+$/.test(digits) && Number(digits) === count;
}

/** What a foreign key's ON DELETE rule does to the rows of `table` that point at a deleted row, in plain words. */
export function onDeleteWords(rule: OnDeleteRule, table: string, columns: string[]): string {
  const names = columns.join(', ');
  switch (rule) {
    case 'cascade':
      return `Rows of ${table} that point at a deleted row are deleted too.`;
    case 'set null':
      return `Rows of ${table} that point at a deleted row keep their row, with ${names} emptied (NULL).`;
    case 'set default':
      return `Rows of ${table} that point at a deleted row get the default value of ${names}.`;
    case 'restrict':
    case 'no action':
      return `A row that rows of ${table} still point at (by ${names}) cannot be deleted: the database refuses, and the change stops there.`;
  }
}
