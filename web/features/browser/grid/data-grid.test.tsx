import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { Row, TableListItem } from '#common/contract/sql.ts';
import { AppProviders } from '#web/app-providers.tsx';
import { DataGrid, gridMessages, type DataGridProps } from './data-grid.tsx';
import { testColumn, testTable } from './grid-test-table.ts';

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
  render(
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
    { wrapper: AppProviders },
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
    render(<SortingGrid table={artists} onSortChange={onSortChange} />, { wrapper: AppProviders });
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

  it('opens a row on click and on Enter', () => {
    const { onOpenRow } = renderGrid();
    fireEvent.click(within(bodyRows()[2]!).getByText('Aerosmith'));
    expect(onOpenRow).toHaveBeenLastCalledWith(rows[2]);
    bodyRows()[1]!.focus();
    fireEvent.keyDown(bodyRows()[1]!, { key: 'Enter' });
    expect(onOpenRow).toHaveBeenLastCalledWith(rows[1]);
    expect(onOpenRow).toHaveBeenCalledTimes(2);
  });

  it('is one tab stop; the arrows, Home and End move the focus between rows', () => {
    renderGrid();
    const tabStops = () => bodyRows().map((row) => row.getAttribute('tabindex'));
    expect(tabStops()).toEqual(['0', '-1', '-1']);
    const [first, second, third] = bodyRows();
    first!.focus();
    fireEvent.keyDown(first!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(second);
    expect(tabStops()).toEqual(['-1', '0', '-1']);
    fireEvent.keyDown(second!, { key: 'End' });
    expect(document.activeElement).toBe(third);
    fireEvent.keyDown(third!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(third);
    fireEvent.keyDown(third!, { key: 'Home' });
    expect(document.activeElement).toBe(first);
    fireEvent.keyDown(first!, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(first);
    fireEvent.keyDown(first!, { key: 'ArrowDown' });
    fireEvent.keyDown(second!, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(first);
  });

  it("copies a cell's value with its copy button, without opening the row, and says so", async () => {
    const writeText = vi.fn<(text: string) => Promise<void>>().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    const { onOpenRow } = renderGrid();
    const [first, second] = bodyRows();
    // Only the active row's copy buttons are in the tab order; a null cell has none.
    expect(within(first!).getByRole('button', { name: 'Copy Name' }).getAttribute('tabindex')).toBe('0');
    expect(within(second!).getByRole('button', { name: 'Copy Name' }).getAttribute('tabindex')).toBe('-1');
    expect(within(second!).queryByRole('button', { name: 'Copy Country' })).toBeNull();
    fireEvent.click(within(first!).getByRole('button', { name: 'Copy Name' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('AC/DC'));
    expect(await screen.findByText('Name copied.')).toBeTruthy();
    const copyId = within(first!).getByRole('button', { name: 'Copy ArtistId' });
    fireEvent.keyDown(copyId, { key: 'Enter' });
    expect(onOpenRow).not.toHaveBeenCalled();
  });

  it('shows a skeleton while the first page loads', () => {
    renderGrid({ loading: true, rows: [] });
    expect(grid().getAttribute('aria-busy')).toBe('true');
    expect(headerNames()).toEqual(['ArtistId', 'Name', 'Country']);
    expect(within(grid()).queryByText(gridMessages.empty)).toBeNull();
    expect(bodyRows().every((row) => row.getAttribute('tabindex') === null)).toBe(true);
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
});
