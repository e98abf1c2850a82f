import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import type { ForeignKeyLabels } from '#common/contract/labels.ts';
import type { Row } from '#common/contract/sql.ts';
import { parseBrowserAddress } from '#web/features/browser/browser-address.ts';
import { renderPage } from '#web/test/render-page.tsx';
import { DataGrid } from './data-grid.tsx';
import { cellLinksOf } from './foreign-key-cell.tsx';
import { testColumn, testTable } from './grid-test-table.ts';

/* The grid's foreign-key cells (issue 37, decision 0067): a label and a link to the row, or the raw key. */

const lines = testTable([
  testColumn('InvoiceLineId', { typeGroup: 'Number', type: 'int', isIndexed: true, isPrimaryKey: true }),
  testColumn('TrackId', { typeGroup: 'Number', type: 'int', isIndexed: true, isForeignKey: true }),
  testColumn('InvoiceId', { typeGroup: 'Number', type: 'int', isIndexed: true, isForeignKey: true }),
]);
const rows: Row[] = [
  { InvoiceLineId: 1, TrackId: 2, InvoiceId: 1 },
  { InvoiceLineId: 2, TrackId: 4, InvoiceId: 1 },
  { InvoiceLineId: 3, TrackId: 999, InvoiceId: 2 },
];
// Track is readable (InvoiceId's table is not: no entry); track 999 names no row (no label).
const labels: ForeignKeyLabels[] = [
  {
    constraint: 'FK_TrackId',
    columns: ['TrackId'],
    schema: 'main',
    table: 'Track',
    key: ['TrackId'],
    values: [
      { key: [2], label: 'Balls to the Wall' },
      { key: [4], label: 'Restless and Wild' },
    ],
  },
];

function renderLinked() {
  const follow = vi.fn<(href: string) => void>();
  const onOpenRow = vi.fn<(row: Row) => void>();
  renderPage(
    <DataGrid
      table={lines}
      rows={rows}
      sort={null}
      onSortChange={() => undefined}
      onOpenRow={onOpenRow}
      loading={false}
      stale={false}
      links={cellLinksOf('chinook', labels, follow)}
    />,
  );
  return { follow, onOpenRow };
}

describe('foreign-key cells', () => {
  it('link a labelled key to its row’s address, with the raw key beside the label', () => {
    renderLinked();
    const link = screen.getByRole('link', { name: /Balls to the Wall/ });
    expect(link.textContent).toBe('Balls to the Wall2');
    expect(link.getAttribute('title')).toBe('Balls to the Wall (2): open this row of Track');
    const href = link.getAttribute('href') ?? '';
    const [path, search] = href.split('?');
    expect(path).toBe('/db/chinook/main/Track');
    expect(parseBrowserAddress(path ?? '', `?${search}`)?.row).toEqual({ TrackId: 2 });
    // Not a tab stop of its own: the grid is one.
    expect(link.getAttribute('tabindex')).toBe('-1');
  });

  it('show the raw key without a link for a key without a label or a table without labels', () => {
    renderLinked();
    expect(screen.getAllByRole('link')).toHaveLength(2);
    const third = screen.getAllByRole('row')[3]!;
    expect(within(third).queryByRole('link')).toBeNull();
    expect(within(third).getByText('999')).toBeTruthy();
    // InvoiceId has no entry (a table the person may not read): plain numbers everywhere.
    expect(screen.getAllByText('1').length).toBeGreaterThan(0);
  });

  it('follow the link on a click without opening the row, and on Enter in its cell', () => {
    const { follow, onOpenRow } = renderLinked();
    fireEvent.click(screen.getByRole('link', { name: /Restless and Wild/ }));
    expect(follow).toHaveBeenCalledWith(expect.stringMatching(/^\/db\/chinook\/main\/Track\?row=/));
    expect(onOpenRow).not.toHaveBeenCalled();

    const cell = screen.getByRole('link', { name: /Balls to the Wall/ }).closest('td')!;
    fireEvent.keyDown(cell, { key: 'Enter' });
    expect(follow).toHaveBeenCalledTimes(2);
    expect(onOpenRow).not.toHaveBeenCalled();
    // Enter on another cell of the row opens the row, as before.
    const first = within(screen.getAllByRole('row')[1]!).getAllByRole('gridcell')[0]!;
    fireEvent.keyDown(first, { key: 'Enter' });
    expect(onOpenRow).toHaveBeenCalledWith(rows[0]);
  });

  it('leave a click with a modifier to the browser (a new tab), still without opening the row', () => {
    const { follow, onOpenRow } = renderLinked();
    const link = screen.getByRole('link', { name: /Restless and Wild/ });
    // jsdom cannot open a tab: the browser's own part is left out here.
    link.addEventListener('click', (event) => event.preventDefault());
    fireEvent.click(link, { ctrlKey: true });
    expect(follow).not.toHaveBeenCalled();
    expect(onOpenRow).not.toHaveBeenCalled();
  });
});
