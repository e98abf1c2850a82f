import type { MouseEvent } from 'react';
import type { ForeignKeyLabels } from '#common/contract/labels.ts';
import type { Row } from '#common/contract/sql.ts';
import { rowAddressUrl } from '#web/features/browser/browser-address.ts';
import classes from './foreign-key-cell.module.css';

/*
 * A foreign-key cell that names its referenced row (issue 37, docs/decisions/0067-foreign-key-labels.md): the label
 * the page answer carries, the raw key dimmed after it, as a link to the row in its own table (`row=`). A key with no
 * label (a table the person may not read, a key that names no row) stays the plain cell. The grid stays one tab stop:
 * the link is not a tab stop of its own; Enter on the focused cell follows it (followCellLink), the row's other cells
 * open the row. A click follows it too and never opens the row it is in.
 */

/** What a linked cell shows and where it leads. */
export interface CellLink {
  href: string;
  label: string;
  /** The raw key, as the cell would show it without a label. */
  key: string;
  /** The referenced table's name, for the link's title. */
  table: string;
}

/** The links of a page's foreign-key cells: `linkOf(column, row)` is null for a cell without one. */
export interface CellLinks {
  linkOf: (column: string, row: Row) => CellLink | null;
  /** Goes to a link's address (a push: Back returns). */
  follow: (href: string) => void;
}

/** Text of a key tuple, as foreign-key-labels.ts matches it on the server. */
const tupleText = (values: readonly unknown[]) => JSON.stringify(values.map((value) => String(value)));

/** The links of a page from its answer's labels. */
export function cellLinksOf(
  db: string,
  labels: readonly ForeignKeyLabels[],
  follow: (href: string) => void,
): CellLinks {
  const byColumn = new Map<string, { entry: ForeignKeyLabels; labelOf: Map<string, string> }[]>();
  for (const entry of labels) {
    const labelOf = new Map(entry.values.map((value) => [tupleText(value.key), value.label]));
    for (const column of entry.columns) {
      byColumn.set(column, [...(byColumn.get(column) ?? []), { entry, labelOf }]);
    }
  }
  return {
    follow,
    linkOf(column, row) {
      for (const { entry, labelOf } of byColumn.get(column) ?? []) {
        const values = entry.columns.map((name) => row[name] ?? null);
        if (values.some((value) => value === null)) continue;
        const label = labelOf.get(tupleText(values));
        if (label === undefined) continue;
        const key = Object.fromEntries(
          entry.key.map((name, i) => [name, values[i] as string | number | boolean]),
        );
        return {
          href: rowAddressUrl(db, { schema: entry.schema, name: entry.table }, key),
          label,
          key: values.map(String).join(', '),
          table: entry.table,
        };
      }
      return null;
    },
  };
}

/** The linked cell's content. */
export function ForeignKeyCell({ link, follow }: { link: CellLink; follow: (href: string) => void }) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    // The row's own click would open the row this cell is in.
    event.stopPropagation();
    // A new tab or window (a modifier or another button) is the browser's; a plain click stays in the app.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    follow(link.href);
  };
  return (
    <a
      className={classes.link}
      href={link.href}
      tabIndex={-1}
      data-fk-link=""
      title={`${link.label} (${link.key}): open this row of ${link.table}`}
      onClick={onClick}
    >
      <span className={classes.label}>{link.label}</span>
      <span className={classes.key}>{link.key}</span>
    </a>
  );
}

/** Enter on a focused cell that holds a link follows it: true when there was one. */
export function followCellLink(target: EventTarget | null): boolean {
  const cell = target instanceof Element ? target.closest('[data-cell]') : null;
  const link = cell?.querySelector<HTMLAnchorElement>('a[data-fk-link]');
  if (!link) return false;
  link.click();
  return true;
}
