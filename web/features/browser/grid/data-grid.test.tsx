import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Row, TableListItem } from '#common/contract/sql.ts';
import { DataGrid, gridMessages, type DataGridProps } from './data-grid.tsx';
import { testColumn, testTable } from './grid-test-table.ts';
import { renderPage } from '#web/test/render-page.tsx';

const artists = testTable([
  testColumn('ArtistId', { typeGroup: 'Number', type: 'int', isIndexed: true, isPrimaryKey: true }),
  testColumn('Name', { isIndexed: true }),
  testColumn('Country'),
]);
const rows: Row[] = [
  { ArtistId: 1, Name: 'AC/DC', Country: 'Australia' },
  { ArtistId: 2, Name: 'Accept', Country: null },
  { ArtistId: 3, Name: 'Aerosmith', Country: 'USA' },
];

function renderGrid(props: Partial<DataGridProps> = {}) {
  const onSortChange = vi.fn<(sort: string | null) => void>();
  const onOpenRow = vi.fn<(row: Row) => void>();
  renderPage(
    <DataGrid
      table={artists}
      rows={rows}
      sort={null}
      onSortChange={onSortChange}
      onOpenRow={onOpenRow}
      loading={false}
      stale={false}
      {...props}
    />,
  );
  return { onSortChange, onOpenRow };
}

/** A grid whose caller keeps the sort, as the page does. */
function SortingGrid({
  table,
  onSortChange,
}: {
  table: TableListItem;
  onSortChange: (sort: string | null) => void;
}) {
  const [sort, setSort] = useState<string | null>(null);
  return (
    <DataGrid
      table={table}
      rows={rows}
      sort={sort}
      onSortChange={(next) => {
        onSortChange(next);
        setSort(next);
      }}
      onOpenRow={() => undefined}
      loading={false}
      stale={false}
    />
  );
}

const grid = () => screen.getByRole('grid', { name: gridMessages.label });
const bodyRows = () => within(grid()).getAllByRole('row').slice(1);
/** A data cell by its row (from 1) and column (from 0). */
const cellAt = (row: number, column: number) =>
  within(bodyRows()[row - 1]!).getAllByRole('gridcell')[column]!;
const headerNames = () =>
  within(grid())
    .getAllByRole('columnheader')
    .map((header) => header.textContent);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('DataGrid', () => {
  it('shows at most 8 columns, indexed first, never hidden ones', () => {
    const table = testTable([
      ...Array.from({ length: 9 }, (_, i) => testColumn(`Plain${i + 1}`)),
      testColumn('Secret', { isHidden: true, isIndexed: true }),
      testColumn('Email', { isIndexed: true }),
      testColumn('Id', { isIndexed: true, typeGroup: 'Number', type: 'int' }),
    ]);
    renderGrid({ table, rows: [] });
    expect(headerNames()).toEqual([
      'Email',
      'Id',
      'Plain1',
      'Plain2',
      'Plain3',
      'Plain4',
      'Plain5',
      'Plain6',
    ]);
  });

  it('shows the rows by their columns, null as "null"', () => {
    renderGrid();
    expect(bodyRows()).toHaveLength(3);
    const cells = within(bodyRows()[1]!).getAllByRole('gridcell');
    expect(cells.map((cell) => cell.textContent)).toEqual(['2', 'Accept', 'null']);
  });

  it('sorts through the header buttons: ascending, descending, none; another column starts ascending', () => {
    const onSortChange = vi.fn<(sort: string | null) => void>();
    renderPage(<SortingGrid table={artists} onSortChange={onSortChange} />);
    const name = () => screen.getByRole('button', { name: 'Name' });
    const nameHeader = () => screen.getByRole('columnheader', { name: 'Name' });
    expect(nameHeader().getAttribute('aria-sort')).toBe('none');
    fireEvent.click(name());
    expect(onSortChange).toHaveBeenLastCalledWith('Name');
    expect(nameHeader().getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(name());
    expect(onSortChange).toHaveBeenLastCalledWith('-Name');
    expect(nameHeader().getAttribute('aria-sort')).toBe('descending');
    fireEvent.click(name());
    expect(onSortChange).toHaveBeenLastCalledWith(null);
    expect(nameHeader().getAttribute('aria-sort')).toBe('none');
    fireEvent.click(name());
    fireEvent.click(screen.getByRole('button', { name: 'Country' }));
    expect(onSortChange).toHaveBeenLastCalledWith('Country');
    expect(nameHeader().getAttribute('aria-sort')).toBe('none');
    expect(screen.getByRole('columnheader', { name: 'Country' }).getAttribute('aria-sort')).toBe('ascending');
  });

  it('offers no sort on a binary column, whose header stays a cell of the keyboard grid', () => {
    const table = testTable([
      testColumn('Id', { typeGroup: 'Number', type: 'int', isIndexed: true, isPrimaryKey: true }),
      testColumn('Photo', { typeGroup: 'image', type: 'blob' }),
    ]);
    renderGrid({ table, rows: [{ Id: 1, Photo: null }] });
    expect(screen.queryByRole('button', { name: 'Photo' })).toBeNull();
    const header = screen.getByRole('columnheader', { name: 'Photo' });
    expect(header.getAttribute('aria-sort')).toBeNull();
    expect(header.querySelector('[data-cell]')?.getAttribute('title')).toMatch(/cannot be sorted/);
    expect(screen.getByRole('button', { name: 'Id' })).toBeTruthy();
  });

  it('opens a row on click and on Enter in any of its cells', () => {
    const { onOpenRow } = renderGrid();
    fireEvent.click(within(bodyRows()[2]!).getByText('Aerosmith'));
    expect(onOpenRow).toHaveBeenLastCalledWith(rows[2]);
    const cell = within(bodyRows()[1]!).getAllByRole('gridcell')[1]!;
    cell.focus();
    fireEvent.keyDown(cell, { key: 'Enter' });
    expect(onOpenRow).toHaveBeenLastCalledWith(rows[1]);
    expect(onOpenRow).toHaveBeenCalledTimes(2);
  });

  it('is one tab stop: the first cell; no copy button or header is another (issue 32)', () => {
    renderGrid();
    const stops = grid().querySelectorAll('[tabindex="0"]');
    expect(stops).toHaveLength(1);
    expect(stops[0]).toBe(cellAt(1, 0));
    const copies = within(grid()).getAllByRole('button', { name: /^Copy / });
    expect(copies.length).toBeGreaterThan(0);
    expect(copies.every((button) => button.getAttribute('tabindex') === '-1')).toBe(true);
    expect(
      within(grid())
        .getAllByRole('button', { name: /^(ArtistId|Name|Country)$/ })
        .every((button) => button.getAttribute('tabindex') === '-1'),
    ).toBe(true);
    expect(grid().getAttribute('aria-describedby')).toBeTruthy();
  });

  it('moves between the cells with the arrows, Home, End, Ctrl+Home and Ctrl+End, the header row included', () => {
    renderGrid();
    const press = (key: string, init: Partial<KeyboardEventInit> = {}) =>
      fireEvent.keyDown(document.activeElement!, { key, ...init });
    cellAt(1, 0).focus();
    press('ArrowRight');
    expect(document.activeElement).toBe(cellAt(1, 1));
    press('ArrowDown');
    expect(document.activeElement).toBe(cellAt(2, 1));
    press('End');
    expect(document.activeElement).toBe(cellAt(2, 2));
    press('ArrowRight');
    expect(document.activeElement).toBe(cellAt(2, 2));
    press('Home');
    expect(document.activeElement).toBe(cellAt(2, 0));
    press('End', { ctrlKey: true });
    expect(document.activeElement).toBe(cellAt(3, 2));
    press('ArrowDown');
    expect(document.activeElement).toBe(cellAt(3, 2));
    // The header row: its sort buttons take the focus.
    press('Home', { ctrlKey: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'ArtistId' }));
    press('ArrowRight');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Name' }));
    press('ArrowDown');
    expect(document.activeElement).toBe(cellAt(1, 1));
    // The tab stop follows the focus: one cell, the active one.
    const stops = grid().querySelectorAll('[tabindex="0"]');
    expect([...stops]).toEqual([cellAt(1, 1)]);
  });

  it('copies the active cell with Ctrl+C or ⌘+C, and with its copy button, without opening the row', async () => {
    const writeText = vi.fn<(text: string) => Promise<void>>().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    const { onOpenRow } = renderGrid();
    cellAt(1, 1).focus();
    fireEvent.keyDown(cellAt(1, 1), { key: 'c', ctrlKey: true });
    await waitFor(() => expect(writeText).toHaveBeenLastCalledWith('AC/DC'));
    expect(await screen.findByText('Name copied.')).toBeTruthy();
    await waitFor(() =>
      expect(
        within(cellAt(1, 1)).getByRole('button', { name: 'Copy Name' }).hasAttribute('data-copied'),
      ).toBe(true),
    );
    fireEvent.keyDown(cellAt(3, 2), { key: 'C', metaKey: true });
    await waitFor(() => expect(writeText).toHaveBeenLastCalledWith('USA'));
    // A null cell has nothing to copy (and no button).
    fireEvent.keyDown(cellAt(2, 2), { key: 'c', ctrlKey: true });
    expect(within(cellAt(2, 2)).queryByRole('button', { name: 'Copy Country' })).toBeNull();
    expect(writeText).toHaveBeenCalledTimes(2);

    fireEvent.click(within(cellAt(1, 0)).getByRole('button', { name: 'Copy ArtistId' }));
    await waitFor(() => expect(writeText).toHaveBeenLastCalledWith('1'));
    fireEvent.keyDown(within(cellAt(1, 0)).getByRole('button', { name: 'Copy ArtistId' }), { key: 'Enter' });
    expect(onOpenRow).not.toHaveBeenCalled();
  });

  it('shows a skeleton while the first page loads', () => {
    renderGrid({ loading: true, rows: [] });
    expect(grid().getAttribute('aria-busy')).toBe('true');
    expect(headerNames()).toEqual(['ArtistId', 'Name', 'Country']);
    expect(within(grid()).queryByText(gridMessages.empty)).toBeNull();
    // No data cell to stop at yet: the first header is the grid's tab stop.
    expect([...grid().querySelectorAll('[tabindex="0"]')]).toEqual([
      screen.getByRole('button', { name: 'ArtistId' }),
    ]);
  });

  it('keeps the rows of the page before, marked busy, while the next loads', () => {
    renderGrid({ stale: true });
    expect(grid().getAttribute('aria-busy')).toBe('true');
    expect(grid().hasAttribute('data-stale')).toBe(true);
    expect(bodyRows()).toHaveLength(3);
  });

  it('says the table is empty, or that no row matches a search', () => {
    renderGrid({ rows: [] });
    expect(screen.getByText(gridMessages.empty)).toBeTruthy();
    expect(grid().getAttribute('aria-busy')).toBeNull();
  });

  it('says no row matches when a search filters the rows', () => {
    renderGrid({ rows: [], filtered: true });
    expect(screen.getByText(gridMessages.noMatch)).toBeTruthy();
  });

  it('shows the layout’s columns in its order, pinned first, with their widths; unknown names dropped', () => {
    renderGrid({
      layout: [{ name: 'Country', width: 200 }, { name: 'Nope' }, { name: 'ArtistId', pinned: true }],
    });
    expect(headerNames()).toEqual(['ArtistId', 'Country']);
    const [key, country] = within(grid()).getAllByRole('columnheader');
    expect(key?.getAttribute('data-pinned')).toBe('true');
    expect(cellAt(1, 0).getAttribute('data-pinned')).toBe('true');
    expect(country?.style.width).toBe('200px');
    expect(cellAt(1, 1).style.width).toBe('200px');
  });

  it('keeps the grid one tab stop: a header’s resize handle is a stop only while its header is active', () => {
    const onLayoutChange = vi.fn();
    renderGrid({ layout: [{ name: 'Name', width: 100 }, { name: 'Country' }], onLayoutChange });
    const handles = within(grid()).getAllByRole('separator');
    expect(handles.map((handle) => handle.getAttribute('aria-label'))).toEqual([
      'Resize Name',
      'Resize Country',
    ]);
    expect(handles.every((handle) => handle.tabIndex === -1)).toBe(true);
    fireEvent.focus(within(grid()).getByRole('button', { name: 'Name' }));
    expect(handles[0]?.tabIndex).toBe(0);
    expect(handles[0]?.getAttribute('aria-orientation')).toBe('vertical');
    expect(handles[0]?.getAttribute('aria-valuenow')).toBe('100');
  });

  it('resizes a column by 16 pixels with ArrowLeft and ArrowRight, clamped to 48', () => {
    const onLayoutChange = vi.fn();
    renderGrid({
      layout: [
        { name: 'Name', width: 100 },
        { name: 'Country', width: 50 },
      ],
      onLayoutChange,
    });
    const [name, country] = within(grid()).getAllByRole('separator');
    fireEvent.keyDown(name!, { key: 'ArrowRight' });
    expect(onLayoutChange).toHaveBeenLastCalledWith([
      { name: 'Name', width: 116 },
      { name: 'Country', width: 50 },
    ]);
    fireEvent.keyDown(country!, { key: 'ArrowLeft' });
    expect(onLayoutChange).toHaveBeenLastCalledWith([
      { name: 'Name', width: 100 },
      { name: 'Country', width: 48 },
    ]);
  });

  it('offers no resize handle without a layout callback', () => {
    renderGrid();
    expect(within(grid()).queryAllByRole('separator')).toHaveLength(0);
  });
});

describe('DataGrid, wide', () => {
  // 40 columns of 180 px (text), shown through a layout: past WINDOW_FROM_COLUMNS, in a 1,024 px window.
  const names = Array.from({ length: 40 }, (_, index) => `c${String(index + 1).padStart(2, '0')}`);
  const wide = testTable(names.map((name) => testColumn(name)));
  const wideRows: Row[] = [1, 2].map((row) =>
    Object.fromEntries(names.map((name) => [name, `${name}-${row}`])),
  );
  const renderWide = () =>
    renderPage(
      <DataGrid
        table={wide}
        rows={wideRows}
        sort={null}
        onSortChange={vi.fn()}
        onOpenRow={vi.fn()}
        loading={false}
        stale={false}
        layout={names.map((name) => ({ name }))}
      />,
    );

  it('renders only the columns in sight, says how many there are, and keeps each row the whole width', () => {
    renderWide();
    expect(grid().getAttribute('aria-colcount')).toBe('40');
    const headers = within(grid()).getAllByRole('columnheader');
    expect(headers.length).toBeGreaterThan(3);
    expect(headers.length).toBeLessThan(20);
    expect(headers[0]?.getAttribute('aria-colindex')).toBe('1');
    expect(grid().style.tableLayout).toBe('fixed');
    expect(grid().style.width).toBe(`${40 * 180}px`);
    // The columns out of sight are one empty cell, as wide as they are together.
    const gap = grid().querySelector('thead [role="presentation"]') as HTMLElement;
    const rendered = headers.length;
    expect(gap.style.width).toBe(`${(40 - rendered) * 180}px`);
  });

  it('renders the column the keyboard moves to, and focuses its cell', async () => {
    renderWide();
    cellAt(1, 0).focus();
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    await waitFor(() => expect(document.activeElement?.getAttribute('data-cell')).toBe('1:39'));
    expect(document.activeElement?.getAttribute('aria-colindex')).toBe('40');
    expect(document.activeElement?.textContent).toContain('c40-1');
    fireEvent.keyDown(document.activeElement!, { key: 'Home' });
    await waitFor(() => expect(document.activeElement?.getAttribute('data-cell')).toBe('1:0'));
  });
});
