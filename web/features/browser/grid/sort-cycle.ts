/*
 * The grid's sort (spec 000 §3, §4): the sort string is a column name, prefixed with - for descending. A header
 * click cycles ascending → descending → none; a click on another column starts that one ascending.
 */

export type SortDirection = 'ascending' | 'descending';

/** Which column a sort string sorts, and which way; null for no sort. */
export function parseSort(sort: string | null): { column: string; direction: SortDirection } | null {
  if (!sort) return null;
  if (sort.startsWith('-')) {
    const column = sort.slice(1);
    return column ? { column, direction: 'descending' } : null;
  }
  return { column: sort, direction: 'ascending' };
}

/** The sort after a click on a column's header. */
export function nextSort(sort: string | null, column: string): string | null {
  const current = parseSort(sort);
  if (current?.column !== column) return column;
  return current.direction === 'ascending' ? `-${column}` : null;
}

/** A column's direction under a sort, as aria-sort names it. */
export function ariaSort(sort: string | null, column: string): SortDirection | 'none' {
  const current = parseSort(sort);
  return current?.column === column ? current.direction : 'none';
}
