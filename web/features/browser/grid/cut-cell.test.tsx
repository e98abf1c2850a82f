import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ROW_CUT_KEY, ROW_VERSION_KEY, type Row } from '#common/contract/sql.ts';
import { fakeApi, ok } from '#web/test/fake-api.ts';
import { renderPage } from '#web/test/render-page.tsx';
import { DataGrid } from './data-grid.tsx';
import { testColumn, testTable } from './grid-test-table.ts';
import { cutMessages } from './cut-values.ts';
import { showValueMessages } from './value-panel/show-value-button.tsx';
import { valuePanelMessages } from './value-panel/value-panel.tsx';

/* Cells of values the page holds cut (docs/decisions/0066-cut-values.md): their start and whole size, the copy of
 * the whole value read again by key, and the value panel showing the whole value as unchanged. */

const api = fakeApi();

const whole = `${'Long text. '.repeat(500)}THE END`;
const wholeBlob = btoa('x'.repeat(3000));
const table = {
  ...testTable([
    testColumn('Id', { typeGroup: 'Number', type: 'int4', isIndexed: true, isPrimaryKey: true }),
    testColumn('Note', { type: 'text', maxLength: -1 }),
    testColumn('Data', { typeGroup: 'Binary', type: 'bytea', maxLength: -1 }),
  ]),
  primaryKey: ['Id'],
};
const wholeRow: Row = { Id: 7, Note: whole, Data: wholeBlob, [ROW_VERSION_KEY]: 'v1' };
const cutRow = {
  Id: 7,
  Note: whole.slice(0, 300),
  Data: wholeBlob.slice(0, 200),
  [ROW_VERSION_KEY]: 'v1',
  [ROW_CUT_KEY]: { Note: whole.length, Data: 3000 },
} as unknown as Row;
const QUERY = '/api/sql/demo/main/products/query';
const answer = (rows: Row[]) => ok({ results: rows, count: rows.length, countIsExact: true, cursor: null });

function renderGrid(rows: Row[] = [cutRow]) {
  renderPage(
    <DataGrid
      table={table}
      rows={rows}
      sort={null}
      onSortChange={() => undefined}
      onOpenRow={() => undefined}
      loading={false}
      stale={false}
    />,
  );
}
const cell = (index: number) => screen.getAllByRole('gridcell')[index]!;

afterEach(() => vi.restoreAllMocks());

describe('a cut cell', () => {
  it('shows its start with an ellipsis and its whole size; binary its whole byte size', () => {
    renderGrid();
    const note = cell(1);
    const text = note.querySelector('[data-cut]');
    expect(text?.textContent?.endsWith('…')).toBe(true);
    expect(text?.getAttribute('title')).toContain(`(${cutMessages.characters(whole.length)})`);
    expect(within(note).getByText('6K chars')).toBeTruthy();
    expect(within(cell(2)).getByText('2.9 KB binary')).toBeTruthy();
  });

  it('copies the whole value, read again by the row key, never the cut one', async () => {
    api.on('POST', QUERY, answer([wholeRow]));
    const writeText = vi.fn<(text: string) => Promise<void>>().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    renderGrid();
    fireEvent.click(within(cell(1)).getByRole('button', { name: 'Copy Note' }));
    await waitFor(() => expect(writeText).toHaveBeenLastCalledWith(whole));
    const [read] = api.requests('POST', QUERY);
    expect(read?.body).toEqual({ where: { and: [{ column: 'Id', op: 'eq', value: 7 }] } });
    // The whole row is read without cutText.
    expect(read?.query.get('cutText')).toBeNull();
    // Ctrl+C on the cell does the same.
    cell(1).focus();
    fireEvent.keyDown(cell(1), { key: 'c', ctrlKey: true });
    await waitFor(() => expect(api.requests('POST', QUERY)).toHaveLength(2));
    await waitFor(() => expect(writeText).toHaveBeenCalledTimes(2));
    expect(writeText).toHaveBeenLastCalledWith(whole);
  });

  it('copies nothing when the row is gone, and says so', async () => {
    api.on('POST', QUERY, answer([]));
    const writeText = vi.fn<(text: string) => Promise<void>>().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    renderGrid();
    fireEvent.click(within(cell(1)).getByRole('button', { name: 'Copy Note' }));
    expect(await screen.findByText(cutMessages.gone)).toBeTruthy();
    expect(writeText).not.toHaveBeenCalled();
  });

  it('shows the whole value in the panel, as unchanged', async () => {
    api.on('POST', QUERY, answer([wholeRow]));
    renderGrid();
    fireEvent.click(screen.getByRole('button', { name: showValueMessages.show('Note') }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText(whole)).toBeTruthy();
    expect(within(dialog).getByText(`text · ${valuePanelMessages.characters(whole.length)}`)).toBeTruthy();
    expect(within(dialog).queryByText(valuePanelMessages.changed)).toBeNull();
  });
});
