import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { ROW_VERSION_KEY, type Row } from '#common/contract/sql.ts';
import { browserMessages as bm, rowVersionMessages as rvm } from '#common/messages.ts';
import { editorMessages as em } from '#web/features/browser/editor/editor-messages.ts';
import { ada, customersTable } from '#web/features/browser/editor/editor-test-table.ts';
import { RowEditor } from '#web/features/browser/editor/row-editor.tsx';
import { conflictMessages as cm } from './conflict-messages.ts';
import { renderPage } from '#web/test/render-page.tsx';
import { fail, fakeApi, ok, type FakeAnswer } from '#web/test/fake-api.ts';

vi.mock('#web/features/browser/editor/row-history.tsx', () => ({ RowHistory: () => null }));

/*
 * The row editor when someone else saved the same row first (decision 0045): the save carries the version of the
 * row as it was opened; the server's 409 with their row opens the conflict view, mine / theirs / as opened, per field.
 */

const TABLE_PATH = '/api/sql/demo/main/customers';
const opened: Row = { ...ada, [ROW_VERSION_KEY]: 'openedVersion0001' };
/** The row after someone else's save: they changed email and notes. */
const theirs: Row = {
  ...ada,
  email: 'ada@lovelace.example',
  notes: 'Called about the engine.',
  [ROW_VERSION_KEY]: 'theirVersion00002',
};

const api = fakeApi();
const fetchMock = api.fetch;
/** What POST …/customers answers, by the version the save carries. */
let answerSave: (body: Row) => FakeAnswer;
let answerDelete: (body: Row) => FakeAnswer;

const decode = (body: BodyInit | null | undefined): Row =>
  typeof body === 'string' ? (JSON.parse(decodeURIComponent(atob(body))) as Row) : {};
const posted = (path: string) =>
  fetchMock.mock.calls
    .filter(([url, init]) => url === path && init.method === 'POST')
    .map(([, init]) => decode(init.body));

beforeEach(() => {
  notifications.clean();
  answerSave = (body) =>
    body[ROW_VERSION_KEY] === theirs[ROW_VERSION_KEY]
      ? ok({ ...theirs, ...body, [ROW_VERSION_KEY]: 'savedVersion00003' }, bm.rowUpdated)
      : fail(409, rvm.changedSince, { current: theirs });
  answerDelete = () => fail(409, rvm.changedSinceDelete, { current: theirs });
  api.on('POST', TABLE_PATH, (request) => answerSave(request.body as Row));
  api.on('POST', `${TABLE_PATH}/delete`, (request) => answerDelete(request.body as Row));
  api.on(
    'GET',
    `${TABLE_PATH}/foreignkeys`,
    ok({
      column: 'country_code',
      referencedSchema: 'main',
      referencedTable: 'countries',
      referencedColumn: 'country_code',
      canReadReferencedTable: true,
      options: [{ key: 'GB', label: 'United Kingdom', isMatch: false }],
      hasMore: false,
      page: 1,
    }),
  );
});

async function openEditor() {
  const onClose = vi.fn();
  renderPage(
    <RowEditor db="demo" table={customersTable()} target={{ mode: 'edit', row: opened }} onClose={onClose} />,
  );
  await screen.findByRole('dialog', { name: em.editTitle });
  return onClose;
}
const input = (name: string) =>
  screen.getByLabelText<HTMLInputElement>(new RegExp(`^${name}( \\*)?$`), { selector: 'input' });
const type = (name: string, value: string) => fireEvent.change(input(name), { target: { value } });
const button = (name: string) => screen.getByRole<HTMLButtonElement>('button', { name });
/** The conflict view's choice for one field. */
const choiceOf = (column: string) => screen.getByRole('radiogroup', { name: column });
/** The words a field's choice is described by (who changed it). */
const describedAs = (column: string) =>
  document.getElementById(choiceOf(column).getAttribute('aria-describedby') ?? '')?.textContent;
const radio = (column: string, side: string) =>
  within(choiceOf(column)).getByRole<HTMLInputElement>('radio', { name: side });

/** Edits first_name and email, then saves: the server refuses with their row. */
async function saveIntoConflict() {
  type('first_name', 'Augusta');
  type('email', 'augusta@example.com');
  fireEvent.click(button(em.saveChanges));
  return screen.findByRole('heading', { name: cm.title });
}

describe('a save refused because someone else changed the row', () => {
  it('sends the version the row was opened at, and shows mine, theirs and the original side by side per field', async () => {
    await openEditor();
    const heading = await saveIntoConflict();
    expect(posted(TABLE_PATH)).toEqual([
      {
        customer_id: 7,
        first_name: 'Augusta',
        email: 'augusta@example.com',
        [ROW_VERSION_KEY]: 'openedVersion0001',
      },
    ]);
    // The view takes the focus and says what happened; the form (with the edits) waits behind it.
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(screen.getByText(rvm.changedSince)).toBeTruthy();
    expect(screen.queryByRole('form', { name: em.editTitle })).toBeNull();
    // Only the fields that differ: first_name (mine only), email (both), notes (theirs only).
    expect(screen.getAllByRole('radiogroup')).toHaveLength(3);
    expect(describedAs('first_name')).toBe(cm.changedByYou);
    expect(describedAs('email')).toBe(cm.changedByBoth);
    expect(describedAs('notes')).toBe(cm.changedByThem);
    const email = within(choiceOf('email'));
    expect(email.getByText('ada@example.com')).toBeTruthy(); // as opened
    expect(email.getByText('augusta@example.com')).toBeTruthy(); // mine
    expect(email.getByText('ada@lovelace.example')).toBeTruthy(); // theirs
    // Each field starts with the change of whoever made one; mine where both did.
    expect(radio('first_name', cm.mine).checked).toBe(true);
    expect(radio('email', cm.mine).checked).toBe(true);
    expect(radio('notes', cm.theirs).checked).toBe(true);
    expect(within(choiceOf('notes')).getAllByText(cm.empty)).toHaveLength(2); // as opened, and mine
  });

  it('saves my choice per field over their row, with their version', async () => {
    await openEditor();
    await saveIntoConflict();
    fireEvent.click(radio('email', cm.theirs));
    fireEvent.click(button(cm.saveChoices));
    expect(await screen.findByText(bm.savedChanges)).toBeTruthy();
    // Their row is the base now: the key, my first_name, and their version; their email and notes stay.
    expect(posted(TABLE_PATH)[1]).toEqual({
      customer_id: 7,
      first_name: 'Augusta',
      [ROW_VERSION_KEY]: 'theirVersion00002',
    });
    await waitFor(() => expect(input('first_name').value).toBe('Augusta'));
    expect(input('email').value).toBe('ada@lovelace.example');
    expect(screen.queryByRole('heading', { name: cm.title })).toBeNull();
  });

  it('keeps mine: every field I see is saved over theirs', async () => {
    await openEditor();
    await saveIntoConflict();
    fireEvent.click(button(cm.keepMine));
    expect(await screen.findByText(bm.savedChanges)).toBeTruthy();
    expect(posted(TABLE_PATH)[1]).toEqual({
      customer_id: 7,
      first_name: 'Augusta',
      email: 'augusta@example.com',
      notes: null,
      [ROW_VERSION_KEY]: 'theirVersion00002',
    });
  });

  it('takes theirs: their row in the form, my edits dropped, nothing sent', async () => {
    const onClose = await openEditor();
    await saveIntoConflict();
    fireEvent.click(button(cm.takeTheirs));
    await waitFor(() => expect(input('email').value).toBe('ada@lovelace.example'));
    expect(input('first_name').value).toBe('Ada');
    expect(screen.getByText(cm.tookTheirs)).toBeTruthy();
    expect(posted(TABLE_PATH)).toHaveLength(1);
    expect(screen.queryByText(bm.pendingChanges.trim())).toBeNull();
    // The next save goes with their version.
    type('first_name', 'Augusta');
    fireEvent.click(button(em.saveChanges));
    expect(await screen.findByText(bm.savedChanges)).toBeTruthy();
    expect(posted(TABLE_PATH)[1]).toMatchObject({ [ROW_VERSION_KEY]: 'theirVersion00002' });
    fireEvent.click(
      within(screen.getByRole('dialog', { name: em.editTitle })).getByRole('button', { name: 'Close' }),
    );
    expect(onClose).toHaveBeenCalledWith(true);
  });

  it('goes back to my changes as they were', async () => {
    await openEditor();
    await saveIntoConflict();
    fireEvent.click(radio('email', cm.theirs));
    expect(radio('email', cm.theirs).checked).toBe(true);
    fireEvent.click(button(cm.back));
    await waitFor(() => expect(screen.queryByRole('heading', { name: cm.title })).toBeNull());
    expect(input('first_name').value).toBe('Augusta');
    expect(input('email').value).toBe('augusta@example.com');
    expect(screen.getByText(bm.pendingChanges.trim())).toBeTruthy();
  });

  it('opens afresh when the resolving save is refused in turn, on the newer row', async () => {
    await openEditor();
    await saveIntoConflict();
    const newest: Row = { ...theirs, notes: 'Third hand.', [ROW_VERSION_KEY]: 'newestVersion0004' };
    answerSave = (body) =>
      body[ROW_VERSION_KEY] === newest[ROW_VERSION_KEY]
        ? ok({ ...newest, ...body }, bm.rowUpdated)
        : fail(409, rvm.changedSince, { current: newest });
    fireEvent.click(button(cm.saveChoices));
    await waitFor(() => expect(within(choiceOf('notes')).getByText('Third hand.')).toBeTruthy());
    // As opened is now their earlier row (what my choices were made on), which my choices kept for notes.
    expect(within(choiceOf('notes')).getAllByText('Called about the engine.')).toHaveLength(2);
    fireEvent.click(button(cm.saveChoices));
    expect(await screen.findByText(bm.savedChanges)).toBeTruthy();
    expect(posted(TABLE_PATH)[2]).toMatchObject({ [ROW_VERSION_KEY]: 'newestVersion0004' });
  });

  it('refuses a delete of a row changed since, and shows the row as it is now', async () => {
    await openEditor();
    fireEvent.click(button(em.deleteRow));
    const confirm = await screen.findByRole('dialog', { name: bm.deleteRowTitle });
    fireEvent.click(within(confirm).getByRole('button', { name: em.delete }));
    expect(await screen.findByText(rvm.changedSinceDelete)).toBeTruthy();
    expect(posted(`${TABLE_PATH}/delete`)).toEqual([
      { customer_id: 7, [ROW_VERSION_KEY]: 'openedVersion0001' },
    ]);
    await waitFor(() => expect(input('email').value).toBe('ada@lovelace.example'));
  });
});
