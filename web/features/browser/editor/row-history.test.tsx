import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Column, Row, RowHistoryEntry, TableListItem } from '#common/contract/sql.ts';
import { testColumn } from '#web/features/browser/test-tables.ts';
import { RowHistory } from './row-history.tsx';
import { renderPage } from '#web/test/render-page.tsx';
import { fail, fakeApi, ok, type FakeAnswer } from '#web/test/fake-api.ts';

// jsdom with Mantine's modal transitions is slow on a shared machine.

/*
 * The editor's History tab against a stubbed fetch: the row's entries (who, when, what, old → new), Undo and Restore
 * only where the server says canUndo, a confirmation, the server's message as the toast, then onUndone.
 */

const column = (id: number, name: string, extra: Partial<Column> = {}): Column =>
  testColumn(id, name, { type: 'text', maxLength: 120, ...extra });

const genre: TableListItem = {
  id: 'chinook/main/Genre',
  schema: 'main',
  name: 'Genre',
  isView: false,
  numberOfColumns: 2,
  numberOfRows: 25,
  numberOfRowsIsEstimate: false,
  hasIdentity: true,
  hasGuid: false,
  primaryKey: ['GenreId'],
  identityColumn: 'GenreId',
  guidColumn: null,
  columns: [
    column(1, 'GenreId', { type: 'integer', typeGroup: 'Number', isIdentity: true, isPrimaryKey: true }),
    column(2, 'Name'),
  ],
  indexes: [],
  foreignKeys: [],
  rights: { canInsert: true, canUpdate: true, canDelete: false },
};

const entry = (id: number, fields: Partial<RowHistoryEntry>): RowHistoryEntry => ({
  id,
  at: '2026-11-24T10:15:00.000Z',
  username: 'editor',
  action: 'data.update',
  change: 'update',
  before: { GenreId: 1, Name: 'Rock' },
  after: { GenreId: 1, Name: 'Rock & Roll' },
  changedColumns: ['Name'],
  undoneBy: null,
  state: 'done',
  canUndo: false,
  ...fields,
});

const api = fakeApi();

/** Answers the history with `entries` and the undo with `undo`; the requests are logged with their bodies. */
function stubFetch(entries: RowHistoryEntry[], undo: FakeAnswer) {
  api.on('POST', '/api/sql/:db/:schema/:table/history', ok(entries));
  api.on('POST', '/api/sql/:db/:schema/:table/history/:id/undo', undo);
  return api.log;
}

const renderHistory = (row: Row, onUndone: (row: Row | null) => void) =>
  renderPage(<RowHistory db="chinook" table={genre} row={row} onUndone={onUndone} />);

describe('RowHistory', () => {
  it('lists the row’s changes, asks before undoing, toasts the server’s message and hands back the row', async () => {
    const calls = stubFetch(
      [
        entry(7, { canUndo: true }),
        entry(3, {
          action: 'data.insert',
          change: 'insert',
          username: null,
          before: null,
          after: { GenreId: 1, Name: 'Rock' },
          changedColumns: ['GenreId', 'Name'],
        }),
      ],
      ok(
        {
          undoEntryId: 9,
          change: 'update',
          key: { GenreId: 1 },
          row: { GenreId: 1, Name: 'Rock' },
          keptKey: true,
        },
        'Undone: Name has its earlier value again.',
      ),
    );
    const onUndone = vi.fn();
    renderHistory({ GenreId: 1, Name: 'Rock & Roll' }, onUndone);

    const list = await screen.findByRole('list', { name: 'Changes' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    // Only the key travels, in the data API's encoding.
    expect(calls[0]).toMatchObject({
      method: 'POST',
      url: '/api/sql/chinook/main/Genre/history',
      body: { GenreId: 1 },
    });

    const [update, insert] = items as [HTMLElement, HTMLElement];
    expect(within(update).getByText('Changed 1 column')).toBeTruthy();
    expect(within(update).getByText(/editor/)).toBeTruthy();
    expect(update.querySelector('time')?.getAttribute('datetime')).toBe('2026-11-24T10:15:00.000Z');
    const cells = within(update)
      .getAllByRole('row')
      .map((r) => r.textContent);
    expect(cells).toEqual(['ColumnOld valueNew value', 'NameRockRock & Roll']);
    expect(within(insert).getByText('Added')).toBeTruthy();
    expect(within(insert).getByText(/a deleted account/)).toBeTruthy();
    expect(within(insert).queryByRole('button')).toBeNull();

    fireEvent.click(within(update).getByRole('button', { name: 'Undo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Undo Change Confirmation' });
    expect(within(dialog).getByText('Put back the earlier value of Name?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Undo' }));

    await waitFor(() => expect(onUndone).toHaveBeenCalledWith({ GenreId: 1, Name: 'Rock' }));
    expect(await screen.findByText('Undone: Name has its earlier value again.')).toBeTruthy();
    expect(
      calls.some((c) => c.method === 'POST' && c.url === '/api/sql/chinook/main/Genre/history/7/undo'),
    ).toBe(true);
  });

  it('offers Restore for a deleted row, and shows a refusal as the toast without calling onUndone', async () => {
    stubFetch(
      [
        entry(5, {
          action: 'data.delete',
          change: 'delete',
          before: { GenreId: 1, Name: 'Rock' },
          after: null,
          changedColumns: ['GenreId', 'Name'],
          canUndo: true,
        }),
      ],
      fail(403, 'You do not have permission to add rows to that table.'),
    );
    const onUndone = vi.fn();
    renderHistory({ GenreId: 1, Name: 'Rock' }, onUndone);

    const restore = await screen.findByRole('button', { name: 'Restore' });
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
    fireEvent.click(restore);
    const dialog = await screen.findByRole('dialog', { name: 'Restore Row Confirmation' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Restore' }));
    expect(await screen.findByText('You do not have permission to add rows to that table.')).toBeTruthy();
    expect(onUndone).not.toHaveBeenCalled();
  });

  it('says so when nothing is recorded, and shows the server’s message when the history fails', async () => {
    stubFetch([], ok(null));
    const { unmount } = renderHistory({ GenreId: 2, Name: 'Jazz' }, vi.fn());
    expect(await screen.findByText('No changes of this row are recorded yet.')).toBeTruthy();
    unmount();

    api.on('POST', '/api/sql/:db/:schema/:table/history', fail(403, 'You do not have access to that table.'));
    renderHistory({ GenreId: 2, Name: 'Jazz' }, vi.fn());
    expect((await screen.findByRole('alert')).textContent).toBe('You do not have access to that table.');
  });
});
