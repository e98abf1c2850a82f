import type { TableListItem } from '#common/contract/sql.ts';

/** The builder's column list: every column a person reads, the indexed ones first (a condition on them can be
 * fast), each group in the table's order. */
export function filterColumns(
  table: TableListItem,
): { group: string; items: { value: string; label: string }[] }[] {
  const readable = table.columns.filter((column) => !column.isHidden);
  const item = (name: string) => ({ value: name, label: name });
  const indexed = readable.filter((column) => column.isIndexed).map((column) => item(column.name));
  const others = readable.filter((column) => !column.isIndexed).map((column) => item(column.name));
  return [
    ...(indexed.length ? [{ group: 'Indexed columns', items: indexed }] : []),
    ...(others.length ? [{ group: 'Other columns', items: others }] : []),
  ];
}
