import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { BULK_KEYS_LIMIT, bulkMessages, type BulkStatus } from '#common/contract/bulk.ts';
import type { Row, TableListItem } from '#common/contract/sql.ts';
import { theme } from '#web/ui/theme.ts';
import '#web/ui/toast-stack.tsx';
import { DataGrid } from '#web/features/browser/grid/data-grid.tsx';
import { testColumn, testTable } from '#web/features/browser/test-tables.ts';
import { renderPage } from '#web/test/render-page.tsx';
import { fail, fakeApi, ok } from '#web/test/fake-api.ts';
import { BulkBar } from './bulk-bar.tsx';
import { BulkDialog } from './bulk-dialog.tsx';
import { setBulkJob } from './bulk-job.ts';
import { BulkJobPanel, bulkProgressText } from './bulk-progress.tsx';
import { BULK_KEYS_MOST, onDeleteWords, typedCountMatches } from './bulk-text.ts';
import { useRowSelection, type RowSelection } from './row-selection.ts';

const track: TableListItem = testTable('main', 'Track', [
  testColumn(1, 'TrackId', { type: 'integer', typeGroup: 'Number', isIdentity: true, isPrimaryKey: true }),
  testColumn(2, 'Name', { isNullable: false }),
  testColumn(3, 'Composer'),
  testColumn(4, 'MediaTypeId', { type: 'integer', typeGroup: 'Number', isForeignKey: true }),
  testColumn(5, 'UnitPrice', {
    type: 'numeric',
    typeGroup: 'Number',
    precision: 10,
    scale: 2,
    isNullable: false,
  }),
]);
const rows: Row[] = Array.from({ length: 6 }, (_, index) => ({
  TrackId: index + 1,
  Name: `Track ${index + 1}`,
  Composer: null,
  MediaTypeId: 1,
  UnitPrice: '0.99',
}));
const BASE = '/api/sql/chinook/main/Track/bulk';
const ID = '7d1f3c2e-8a4b-4c5d-9e6f-0a1b2c3d4e5f';

const api = fakeApi();
const sent = (method: string, path: string) =>
  api.fetch.mock.calls.filter(([url, init]) => url === path && (init.method ?? 'GET') === method);
const bodyOf = (method: string, path: string, index = 0) =>
  JSON.parse(String(sent(method, path)[index]?.[1].body)) as Record<string, unknown>;

beforeEach(() => {
  notifications.clean();
  setBulkJob(null);
});
afterEach(() => setBulkJob(null));

const wrap = (node: React.ReactNode) => (
  <MantineProvider env="test" theme={theme}>
    {node}
  </MantineProvider>
);

/** The grid with the card's selection, under a scope the test changes. */
function Selecting({ table, scope: first }: { table: TableListItem; scope: string }) {
  const [scope, setScope] = useState(first);
  const bulk = useRowSelection(table, rows, scope);
  return (
    <>
      <button type="button" onClick={() => setScope('filter B')}>
        Filter B
      </button>
      <button type="button" onClick={() => setScope('filter A')}>
        Filter A
      </button>
      <output data-testid="chosen">{[...bulk.selection.keys.keys()].join(' | ')}</output>
      <DataGrid
        table={table}
        rows={rows}
        sort={null}
        onSortChange={() => undefined}
        onOpenRow={() => undefined}
        loading={false}
        stale={false}
        selection={bulk.grid}
      />
    </>
  );
}

const box = (key: number) => screen.getByRole<HTMLInputElement>('checkbox', { name: `Select row ${key}` });
const chosen = () => screen.getByTestId('chosen').textContent;

describe('the grid’s selection', () => {
  it('selects a row by its key, a range by shift-click, and the page by the header’s box', () => {
    renderPage(wrap(<Selecting table={track} scope="a" />));
    fireEvent.click(box(2));
    expect(chosen()).toBe('2');
    fireEvent.click(box(5), { shiftKey: true });
    expect(chosen()).toBe('2 | 3 | 4 | 5');
    expect(box(4).checked).toBe(true);
    expect(box(6).checked).toBe(false);
    const page = screen.getByRole<HTMLInputElement>('checkbox', { name: 'Select the rows of this page' });
    expect(page.indeterminate).toBe(true);
    fireEvent.click(page);
    expect(chosen()).toBe('2 | 3 | 4 | 5 | 1 | 6');
    expect(page.checked).toBe(true);
    fireEvent.click(page);
    expect(chosen()).toBe('');
  });

  it('is a stop of the grid’s keyboard model: the arrows reach the boxes, Space ticks one, Enter opens no row', () => {
    renderPage(wrap(<Selecting table={track} scope="a" />));
    const first = box(1);
    expect(first.tabIndex).toBe(0);
    fireEvent.keyDown(first, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(box(2));
    fireEvent.keyDown(box(2), { key: 'ArrowRight' });
    expect(document.activeElement?.closest('td')?.textContent).toBe('2');
  });

  it('is cleared when the search, the filter or the table changes', () => {
    renderPage(wrap(<Selecting table={track} scope="filter A" />));
    fireEvent.click(box(1));
    fireEvent.click(box(3));
    expect(chosen()).toBe('1 | 3');
    fireEvent.click(screen.getByRole('button', { name: 'Filter B' }));
    expect(chosen()).toBe('');
    expect(box(1).checked).toBe(false);
    // Back to the first filter: nothing comes back either.
    fireEvent.click(screen.getByRole('button', { name: 'Filter A' }));
    expect(chosen()).toBe('');
  });

  it('has no checkbox column without CanUpdate and CanDelete', () => {
    const readOnly = { ...track, rights: { canInsert: true, canUpdate: false, canDelete: false } };
    renderPage(wrap(<Selecting table={readOnly} scope="a" />));
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
    expect(screen.getAllByRole('columnheader')).toHaveLength(5);
  });
});

const selectionOf = (keys: number[], all = false): RowSelection => ({
  scope: 's',
  keys: new Map(keys.map((key) => [String(key), rows[key - 1]!])),
  all,
  last: null,
});

describe('the bulk bar', () => {
  const bar = (table: TableListItem, selection: RowSelection) =>
    renderPage(
      wrap(
        <BulkBar
          db="chinook"
          table={table}
          bulk={{ selection, selectAll: () => undefined, clear: () => undefined }}
          view={{ where: null, filter: {} }}
          page={{ count: 3034, countIsExact: true }}
        />,
      ),
    );

  it('offers Set value… with CanUpdate only and Delete with CanDelete only', () => {
    bar({ ...track, rights: { canInsert: false, canUpdate: false, canDelete: true } }, selectionOf([1, 2]));
    expect(screen.getByText('2 selected')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Select all 3,034 rows of this filter' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Set value…' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeTruthy();
  });

  it('says when every row of the filter is selected', () => {
    bar({ ...track, rights: { canInsert: false, canUpdate: true, canDelete: false } }, selectionOf([], true));
    expect(screen.getByText('All 3,034 rows of this filter selected')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Set value…' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });
});

const preview = (count: number, capped = false) => ({
  count,
  capped,
  sample: [
    { before: rows[0]!, after: { ...rows[0]!, UnitPrice: '1.29' } },
    { before: rows[1]!, after: { ...rows[1]!, UnitPrice: '1.29' } },
  ],
});

async function setPriceAndPreview() {
  const dialog = await screen.findByRole('dialog', { name: 'Set values on main.Track' });
  const columns = within(dialog).getByRole('combobox', { name: 'Columns to set' });
  fireEvent.click(columns);
  // Keys, identity and foreign keys cannot be set: they are not offered.
  expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
    'Name',
    'Composer',
    'UnitPrice',
  ]);
  fireEvent.click(screen.getByRole('option', { name: 'UnitPrice' }));
  fireEvent.change(within(dialog).getByRole('textbox', { name: 'UnitPrice' }), { target: { value: '1.29' } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Preview' }));
  return dialog;
}

describe('the bulk dialog', () => {
  const open = () =>
    renderPage(
      wrap(
        <BulkDialog
          db="chinook"
          table={track}
          action="update"
          selection={selectionOf([], true)}
          where={{ column: 'MediaTypeId', op: 'eq', value: 1 }}
          onClose={() => undefined}
          onStarted={() => undefined}
        />,
      ),
    );

  it('asks for the count above 1,000 rows before Run, digits with or without commas', async () => {
    api.once('POST', `${BASE}/preview`, ok(preview(3034)));
    open();
    const dialog = await setPriceAndPreview();
    await within(dialog).findByText('This sets 3,034 rows: UnitPrice.');
    expect(bodyOf('POST', `${BASE}/preview`)).toEqual({
      action: 'update',
      where: { column: 'MediaTypeId', op: 'eq', value: 1 },
      set: { UnitPrice: '1.29' },
    });
    const run = within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Set values on 3,034 rows' });
    expect(run.disabled).toBe(true);
    const typed = within(dialog).getByRole('textbox', { name: /^Type the number of rows \(3,034\)/ });
    fireEvent.change(typed, { target: { value: '3,033' } });
    expect(run.disabled).toBe(true);
    fireEvent.change(typed, { target: { value: '3,034' } });
    expect(run.disabled).toBe(false);
    fireEvent.change(typed, { target: { value: '3034' } });
    expect(run.disabled).toBe(false);
    // The sample: the changed value before → after.
    expect(within(dialog).getAllByText('1.29')).toHaveLength(2);
  });

  it('shows the server’s sentence and the new count on a 409, and previews again', async () => {
    api.once('POST', `${BASE}/preview`, ok(preview(12)));
    api.once('POST', BASE, fail(409, bulkMessages.countChanged(14, false), { count: 14, capped: false }));
    api.once('POST', `${BASE}/preview`, ok(preview(14)));
    open();
    const dialog = await setPriceAndPreview();
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Set values on 12 rows' }));
    await within(dialog).findByText(bulkMessages.countChanged(14, false));
    expect(within(dialog).getByText('Now: 14 rows.')).toBeTruthy();
    expect(bodyOf('POST', BASE).expectedCount).toBe(12);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Preview again' }));
    expect(await within(dialog).findByRole('button', { name: 'Set values on 14 rows' })).toBeTruthy();
  });

  it('shows a 400 of the server as it is', async () => {
    const sentence = 'UnitPrice cannot be empty: give it a value.';
    api.once('POST', `${BASE}/preview`, fail(400, sentence));
    open();
    const dialog = await setPriceAndPreview();
    expect(await within(dialog).findByText(sentence)).toBeTruthy();
  });
});

const status = (overrides: Partial<BulkStatus>): BulkStatus => ({
  state: 'running',
  inProgress: true,
  percentageCompleted: 40,
  done: 1200,
  total: 3034,
  auditId: 7,
  error: null,
  ...overrides,
});

describe('the job’s panel', () => {
  const start = () =>
    act(() =>
      setBulkJob({
        kind: 'change',
        job: { db: 'chinook', schema: 'main', table: 'Track', id: ID },
        title: 'Setting values on main.Track',
        verb: 'Values set on',
        startedAt: Date.now() - 10_000,
        status: null,
        cancelling: false,
      }),
    );

  it('shows the progress, cancels, and says what was kept', async () => {
    api.once('GET', `${BASE}/${ID}`, ok(status({})));
    api.on(
      'GET',
      `${BASE}/${ID}`,
      ok(status({ state: 'cancelled', inProgress: false, error: bulkMessages.cancelled })),
    );
    api.once('POST', `${BASE}/${ID}/cancel`, ok(status({ state: 'cancelled', inProgress: false })));
    renderPage(wrap(<BulkJobPanel />));
    start();
    const bar = await screen.findByRole('progressbar', { name: 'Bulk change progress' });
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('40'));
    expect(bar.getAttribute('aria-valuetext')).toMatch(
      /^40% · 1,200 of 3,034 rows · less than a minute left$/,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(sent('POST', `${BASE}/${ID}/cancel`)).toHaveLength(1));
    await screen.findByText(
      /^The bulk change was cancelled: 1,200 rows changed before are kept/,
      {},
      { timeout: 3000 },
    );
    expect(screen.getByRole('button', { name: 'Undo' })).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('shows a failed job’s error as the server wrote it', async () => {
    const error = 'The change stopped at the row {"TrackId":6}: the value is too long for Name.';
    api.on('GET', `${BASE}/${ID}`, ok(status({ state: 'failed', inProgress: false, error })));
    renderPage(wrap(<BulkJobPanel />));
    start();
    expect(await screen.findByText(error)).toBeTruthy();
  });
});

describe('the bulk texts', () => {
  it('takes the count typed with or without commas, and nothing else', () => {
    expect(typedCountMatches('3,034', 3034)).toBe(true);
    expect(typedCountMatches(' 3034 ', 3034)).toBe(true);
    expect(typedCountMatches('1,000,000+', 1_000_000)).toBe(true);
    expect(typedCountMatches('3.034', 3034)).toBe(false);
    expect(typedCountMatches('', 0)).toBe(false);
  });

  it('keeps the bar’s key limit the contract’s', () => {
    expect(BULK_KEYS_MOST).toBe(BULK_KEYS_LIMIT);
  });

  it('says what ON DELETE does in plain words', () => {
    expect(onDeleteWords('cascade', 'InvoiceLine', ['TrackId'])).toBe(
      'Rows of InvoiceLine that point at a deleted row are deleted too.',
    );
  });

  it('says the progress', () => {
    expect(bulkProgressText({ startedAt: 0, status: null })).toBe('Starting…');
    expect(
      bulkProgressText(
        { startedAt: 0, status: status({ percentageCompleted: 50, done: 500, total: 1000 }) },
        20_000,
      ),
    ).toBe('50% · 500 of 1,000 rows · less than a minute left');
  });
});
