import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import type { Reference } from '#common/contract/relations.ts';
import type { ForeignKeyChoices, Row, TableListItem } from '#common/contract/sql.ts';
import { browserMessages as bm, formMessages as fm } from '#common/messages.ts';
import { editorMessages as em } from './editor-messages.ts';
import { ada, customersTable, productTagsTable } from './editor-test-table.ts';
import { RowEditor, type EditorTarget } from './row-editor.tsx';
import { queryKeys } from '#web/api/query-keys.ts';
import { renderPage } from '#web/test/render-page.tsx';
import { fail, fakeApi, ok, raw } from '#web/test/fake-api.ts';

// A modal with many Mantine inputs is slow to render in jsdom on a shared machine.

// The History tab is another piece with its own tests; here it only has to be where the editor puts it.
vi.mock('#web/features/browser/editor/row-history.tsx', () => ({
  RowHistory: ({ row }: { row: Row }) => <p>History of {String(row.customer_id)}</p>,
}));

const api = fakeApi();
const fetchMock = api.fetch;

const TABLE_PATH = '/api/sql/demo/main/customers';

/** The spec's row encoding undone: base64 → URI component → JSON. */
const decode = (body: BodyInit | null | undefined): unknown =>
  typeof body === 'string' ? JSON.parse(decodeURIComponent(atob(body))) : undefined;

function calls(method: string, path: string): unknown[] {
  return fetchMock.mock.calls
    .filter(([u, init]) => u.split('?')[0] === path && (init.method ?? 'GET') === method)
    .map(([, init]) => decode(init.body));
}

const countries = [
  { key: 'DE', label: 'Germany' },
  { key: 'FR', label: 'France' },
  { key: 'GB', label: 'United Kingdom' },
];

/** The server's answer: with a term, its matches first (isMatch), then the other options (spec 000 §9). */
function choices(term: string, page: number, canRead = true): ForeignKeyChoices {
  const matches = (c: { key: string; label: string }) =>
    term !== '' && (c.key === term || c.label.toLowerCase().startsWith(term.toLowerCase()));
  const matching = [
    ...countries.filter(matches).map((c) => ({ ...c, isMatch: true })),
    ...countries.filter((c) => !matches(c)).map((c) => ({ ...c, isMatch: false })),
  ];
  return {
    column: 'country_code',
    referencedSchema: 'main',
    referencedTable: 'countries',
    referencedColumn: 'country_code',
    canReadReferencedTable: canRead,
    options: canRead ? matching : [],
    hasMore: false,
    page,
  };
}

beforeEach(() => {
  notifications.clean();
  api.on('GET', `${TABLE_PATH}/foreignkeys`, (request) =>
    ok(choices(request.query.get('term') ?? '', Number(request.query.get('page') ?? 1))),
  );
  api.on('POST', TABLE_PATH, (request) =>
    ok({ ...ada, ...(request.body as Row), customer_id: 7 }, bm.rowUpdated),
  );
  api.on('POST', `${TABLE_PATH}/delete`, ok(ada, bm.rowDeleted));
  api.on('POST', `${TABLE_PATH}/references`, ok([]));
});

function renderEditor(target: EditorTarget | null, table: TableListItem = customersTable()) {
  const onClose = vi.fn();
  const view = renderPage(<RowEditor db="demo" table={table} target={target} onClose={onClose} />);
  return { onClose, view };
}

/** A field's label: the column's name, with the required mark (aria-hidden, so not in the accessible name). */
const label = (name: string) => new RegExp(`^${name}( \\*)?$`);
const input = (name: string) => screen.getByLabelText<HTMLInputElement>(label(name), { selector: 'input' });
const textarea = (name: string) =>
  screen.getByLabelText<HTMLTextAreaElement>(label(name), { selector: 'textarea' });
const button = (name: string) => screen.getByRole<HTMLButtonElement>('button', { name });
const type = (name: string, value: string) => fireEvent.change(input(name), { target: { value } });
/** The editor's own close button (each toast has one too). */
const closeButton = () =>
  within(screen.getByRole('dialog', { name: /^(Edit|Add) row$/ })).getByRole('button', { name: 'Close' });
const dialog = (name: string) => screen.findByRole('dialog', { name });

/** The customers' columns without created_at (required, so a new row could not be saved without a date). */
const withoutCreatedAt = () => customersTable().columns.filter((c) => c.name !== 'created_at');

describe('the row editor of an existing row', () => {
  it('shows "Edit row" with schema.name, tabs Row and History, Copy and Delete, and one field per column', async () => {
    renderEditor({ mode: 'edit', row: ada });
    const editor = await dialog(em.editTitle);
    expect(within(editor).getByText('main.customers')).toBeTruthy();
    expect(within(editor).getByRole('tab', { name: em.rowTab })).toBeTruthy();
    expect(within(editor).getByRole('tab', { name: em.historyTab })).toBeTruthy();
    expect(button(em.copyRow)).toBeTruthy();
    expect(button(em.deleteRow)).toBeTruthy();
    expect(input('first_name').value).toBe('Ada');
    expect(input('email').value).toBe('ada@example.com');
    expect(textarea('notes').rows).toBe(8);
    expect(input('credit_limit').value).toBe('1500.50');
    expect(input('preferred_contact_time').value).toBe('09:30:00');
    expect(screen.getByRole('switch', { name: 'is_active' })).toBeTruthy();
    // The date shows in short form, in its own offset.
    expect(screen.getByText('2024-03-05 14:03:00 +02:00')).toBeTruthy();
    expect(screen.getByText('1815-12-10')).toBeTruthy();
    // No pending changes: no banner.
    expect(screen.queryByText(bm.pendingChanges.trim())).toBeNull();
  });

  it('groups the fields by kind (spec 000 §2): image, combobox, number, text, textarea, checkbox', async () => {
    renderEditor({ mode: 'edit', row: ada });
    const editor = await dialog(em.editTitle);
    const order = [...editor.querySelectorAll<HTMLElement>('[data-column]')].map(
      (node) => node.dataset.column,
    );
    expect(order).toEqual([
      'photo',
      'country_code',
      'customer_id',
      'loyalty_points',
      'credit_limit',
      'customer_guid',
      'first_name',
      'email',
      'birth_date',
      'preferred_contact_time',
      'created_at',
      'last_login_at',
      'full_name',
      'notes',
      'is_active',
    ]);
    // Inputs of one height share lines; the image, the textarea and the switch each start a block.
    const sections = [...editor.querySelectorAll<HTMLElement>('[data-section]')].map(
      (node) => node.dataset.section,
    );
    expect(sections).toEqual(['image', 'inputs', 'textarea', 'checkbox']);
  });

  it("makes identity, guid, computed and foreign-key columns read-only, the foreign key showing its option's label", async () => {
    renderEditor({ mode: 'edit', row: ada });
    await dialog(em.editTitle);
    expect(input('customer_id').readOnly).toBe(true);
    expect(input('customer_guid').readOnly).toBe(true);
    expect(input('full_name').readOnly).toBe(true);
    expect(input('country_code').readOnly).toBe(true);
    await waitFor(() => expect(input('country_code').value).toBe('United Kingdom'));
    expect(input('first_name').readOnly).toBe(false);
  });

  it('shows the banner on the first edit; Discard Changes puts the row back', async () => {
    renderEditor({ mode: 'edit', row: ada });
    await dialog(em.editTitle);
    type('first_name', 'Augusta');
    expect(screen.getByText(bm.pendingChanges.trim())).toBeTruthy();
    fireEvent.click(button(em.discardChanges));
    expect(input('first_name').value).toBe('Ada');
    expect(screen.queryByText(bm.pendingChanges.trim())).toBeNull();
  });

  it("saves the key and the changed columns, says 'Successfully saved changes.', and shows the answered row", async () => {
    const { onClose } = renderEditor({ mode: 'edit', row: ada });
    await dialog(em.editTitle);
    type('first_name', 'Augusta');
    fireEvent.click(button(em.saveChanges));
    expect(await screen.findByText(bm.savedChanges)).toBeTruthy();
    expect(screen.getByText(bm.rowUpdated)).toBeTruthy();
    expect(calls('POST', TABLE_PATH)).toEqual([{ customer_id: 7, first_name: 'Augusta' }]);
    await waitFor(() => expect(screen.queryByText(bm.pendingChanges.trim())).toBeNull());
    expect(input('first_name').value).toBe('Augusta');
    // Closing after a save tells the grid to read its page again.
    fireEvent.click(closeButton());
    expect(onClose).toHaveBeenCalledWith(true);
  });

  it("says 'Failed to save changes.' with the server's reason and keeps the edit", async () => {
    api.on('POST', TABLE_PATH, fail(400, 'email: "x" is not an email.'));
    renderEditor({ mode: 'edit', row: ada });
    await dialog(em.editTitle);
    type('email', 'x');
    fireEvent.click(button(em.saveChanges));
    expect(await screen.findByText(bm.saveFailed)).toBeTruthy();
    expect(screen.getByText('email: "x" is not an email.')).toBeTruthy();
    expect(input('email').value).toBe('x');
    expect(screen.getByText(bm.pendingChanges.trim())).toBeTruthy();
  });

  it("without the server's reason the failure says 'Failed to update row.'", async () => {
    api.on('POST', TABLE_PATH, raw(new Response('', { status: 500 })));
    renderEditor({ mode: 'edit', row: ada });
    await dialog(em.editTitle);
    type('email', 'y@example.com');
    fireEvent.click(button(em.saveChanges));
    expect(await screen.findByText(bm.saveFailed)).toBeTruthy();
    expect(screen.getByText(bm.rowUpdateFailed)).toBeTruthy();
  });

  it('shows the validation messages once a field is changed, and sends nothing while one stands', async () => {
    renderEditor({ mode: 'edit', row: ada });
    await dialog(em.editTitle);
    type('first_name', '');
    expect(await screen.findByText(fm.required('first_name'))).toBeTruthy();
    type('email', `${'x'.repeat(250)}@b.cd`);
    expect(await screen.findByText(fm.tooLong('email', 254))).toBeTruthy();
    fireEvent.click(button(em.saveChanges));
    await act(() => Promise.resolve());
    expect(calls('POST', TABLE_PATH)).toHaveLength(0);
    type('first_name', 'Ada');
    await waitFor(() => expect(screen.queryByText(fm.required('first_name'))).toBeNull());
  });

  it('keeps the editor open with pending changes: closing says to save or discard first', async () => {
    const { onClose } = renderEditor({ mode: 'edit', row: ada });
    await dialog(em.editTitle);
    type('first_name', 'Augusta');
    fireEvent.click(closeButton());
    expect(await screen.findByText(em.closeWithPendingChanges)).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.click(button(em.discardChanges));
    fireEvent.click(closeButton());
    expect(onClose).toHaveBeenCalledWith(false);
  });
});

describe('deleting a row', () => {
  it("refuses with pending changes: 'Cannot delete with pending changes.'", async () => {
    renderEditor({ mode: 'edit', row: ada });
    await dialog(em.editTitle);
    type('first_name', 'Augusta');
    fireEvent.click(button(em.deleteRow));
    expect(await screen.findByText(bm.cannotDeleteWithPendingChanges)).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: bm.deleteRowTitle })).toBeNull();
  });

  it('asks first; Cancel deletes nothing', async () => {
    renderEditor({ mode: 'edit', row: ada });
    await dialog(em.editTitle);
    fireEvent.click(button(em.deleteRow));
    const confirm = await dialog(bm.deleteRowTitle);
    expect(within(confirm).getByText(bm.deleteRowMessage)).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: em.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: bm.deleteRowTitle })).toBeNull());
    expect(calls('POST', `${TABLE_PATH}/delete`)).toHaveLength(0);
  });

  it("deletes by the key, says 'Successfully deleted row.' and closes with changes", async () => {
    const { onClose } = renderEditor({ mode: 'edit', row: ada });
    await dialog(em.editTitle);
    fireEvent.click(button(em.deleteRow));
    const confirm = await dialog(bm.deleteRowTitle);
    fireEvent.click(within(confirm).getByRole('button', { name: em.delete }));
    expect(await screen.findByText(bm.rowDeleted)).toBeTruthy();
    expect(calls('POST', `${TABLE_PATH}/delete`)).toEqual([{ customer_id: 7 }]);
    expect(onClose).toHaveBeenCalledWith(true);
  });

  it("says 'Failed to delete row.' with the server's reason and stays open", async () => {
    api.on(
      'POST',
      `${TABLE_PATH}/delete`,
      fail(404, 'This row no longer exists: it may have been deleted. Reload the page.'),
    );
    const { onClose } = renderEditor({ mode: 'edit', row: ada });
    await dialog(em.editTitle);
    fireEvent.click(button(em.deleteRow));
    fireEvent.click(within(await dialog(bm.deleteRowTitle)).getByRole('button', { name: em.delete }));
    expect(await screen.findByText(bm.rowDeleteFailed)).toBeTruthy();
    expect(
      screen.getByText('This row no longer exists: it may have been deleted. Reload the page.'),
    ).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });
});

/** A foreign key of another table pointing at customers (issue 37), as POST …/references answers it. */
const referencing = (fields: Partial<Reference>): Reference => ({
  schema: 'main',
  table: 'orders',
  columns: ['customer_id'],
  referencedColumns: ['customer_id'],
  constraint: 'fk_orders_customer',
  onDelete: 'no action',
  count: 3,
  capped: false,
  ...fields,
});

describe('what references the row (issue 37)', () => {
  it('has a Referenced by tab when editing (not when adding), asked when it opens', async () => {
    api.on('POST', `${TABLE_PATH}/references`, ok([referencing({})]));
    const { onClose } = renderEditor({ mode: 'edit', row: ada });
    const editor = await dialog(em.editTitle);
    expect(calls('POST', `${TABLE_PATH}/references`)).toHaveLength(0);
    fireEvent.click(within(editor).getByRole('tab', { name: em.referencesTab }));
    const link = await within(editor).findByRole('link', { name: /orders/ });
    expect(calls('POST', `${TABLE_PATH}/references`)).toEqual([{ customer_id: 7 }]);
    expect(link.getAttribute('href')).toMatch(/^\/db\/demo\/main\/orders\?where=[A-Za-z0-9_-]+$/);
    // Following it closes the editor (nothing changed) as the router leaves for the orders.
    fireEvent.click(link);
    expect(onClose).toHaveBeenCalledWith(false);
  });

  it('holds a link while changes are pending, as it holds a close', async () => {
    api.on('POST', `${TABLE_PATH}/references`, ok([referencing({})]));
    const { onClose, view } = renderEditor({ mode: 'edit', row: ada });
    const editor = await dialog(em.editTitle);
    type('first_name', 'Augusta');
    fireEvent.click(within(editor).getByRole('tab', { name: em.referencesTab }));
    fireEvent.click(await within(editor).findByRole('link', { name: /orders/ }));
    expect(await screen.findByText(em.closeWithPendingChanges)).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
    expect(view.router.state.location.pathname).toBe('/');
  });

  it('has no Referenced by tab when adding', async () => {
    renderEditor({ mode: 'add' });
    const editor = await dialog(em.addTitle);
    expect(within(editor).queryByRole('tab', { name: em.referencesTab })).toBeNull();
  });

  it('says below the delete question what the database will do to the rows that reference it, per rule', async () => {
    api.on(
      'POST',
      `${TABLE_PATH}/references`,
      ok([
        referencing({}),
        referencing({ table: 'payments', constraint: 'fk_p', onDelete: 'restrict', count: 1 }),
        referencing({
          table: 'order_lines',
          constraint: 'fk_ol',
          onDelete: 'cascade',
          count: 1000,
          capped: true,
        }),
        referencing({ table: 'notes', constraint: 'fk_n', onDelete: 'set null', count: 1 }),
        referencing({ table: 'tags', constraint: 'fk_t', onDelete: 'set default', count: 4 }),
        referencing({
          schema: 'audit',
          table: 'visits',
          constraint: 'fk_v',
          onDelete: 'cascade',
          count: null,
        }),
        referencing({ table: 'reviews', constraint: 'fk_r', count: 0 }),
      ]),
    );
    renderEditor({ mode: 'edit', row: ada });
    await dialog(em.editTitle);
    fireEvent.click(button(em.deleteRow));
    const confirm = await dialog(bm.deleteRowTitle);
    expect(within(confirm).getByText(bm.deleteRowMessage)).toBeTruthy();
    await within(confirm).findByText(
      'The database will refuse the delete while 3 rows of orders reference it.',
    );
    expect(
      within(confirm).getByText('The database will refuse the delete while 1 row of payments references it.'),
    ).toBeTruthy();
    expect(within(confirm).getByText('1,000+ rows of order_lines will be deleted with it.')).toBeTruthy();
    expect(within(confirm).getByText('1 row of notes will lose its reference (set to null).')).toBeTruthy();
    expect(
      within(confirm).getByText('4 rows of tags will lose their reference (set to default).'),
    ).toBeTruthy();
    expect(
      within(confirm).getByText(
        'Rows of audit.visits may reference it (not counted): any that do will be deleted with it.',
      ),
    ).toBeTruthy();
    // No sentence for a table none of whose rows point here.
    expect(within(confirm).queryByText(/reviews/)).toBeNull();
    expect(calls('POST', `${TABLE_PATH}/references`)).toEqual([{ customer_id: 7 }]);
  });

  it('after a delete, marks the pages of tables whose rows the database deleted or changed with it as stale', async () => {
    api.on(
      'POST',
      `${TABLE_PATH}/references`,
      ok([
        referencing({ table: 'order_lines', constraint: 'fk_ol', onDelete: 'cascade', count: 2 }),
        referencing({ table: 'payments', constraint: 'fk_p', onDelete: 'no action', count: 0 }),
      ]),
    );
    const { view } = renderEditor({ mode: 'edit', row: ada });
    const lines = [...queryKeys.sql.table({ db: 'demo', schema: 'main', table: 'order_lines' }), 'page'];
    const payments = [...queryKeys.sql.table({ db: 'demo', schema: 'main', table: 'payments' }), 'page'];
    view.queryClient.setQueryData(lines, { rows: [] });
    view.queryClient.setQueryData(payments, { rows: [] });
    await dialog(em.editTitle);
    fireEvent.click(button(em.deleteRow));
    const confirm = await dialog(bm.deleteRowTitle);
    await within(confirm).findByText('2 rows of order_lines will be deleted with it.');
    fireEvent.click(within(confirm).getByRole('button', { name: em.delete }));
    expect(await screen.findByText(bm.rowDeleted)).toBeTruthy();
    expect(view.queryClient.getQueryState(lines)?.isInvalidated).toBe(true);
    expect(view.queryClient.getQueryState(payments)?.isInvalidated).toBe(false);
  });

  it('offers no Referenced by tab for a table without a row key', async () => {
    const columns = customersTable().columns.map((c) => ({
      ...c,
      isIdentity: false,
      isGuid: false,
      isPrimaryKey: false,
    }));
    renderEditor({ mode: 'edit', row: ada }, customersTable({}, columns));
    const editor = await dialog(em.editTitle);
    expect(within(editor).getByRole('tab', { name: em.historyTab })).toBeTruthy();
    expect(within(editor).queryByRole('tab', { name: em.referencesTab })).toBeNull();
  });

  it("shows the spec's message alone when nothing references the row", async () => {
    renderEditor({ mode: 'edit', row: ada });
    await dialog(em.editTitle);
    fireEvent.click(button(em.deleteRow));
    const confirm = await dialog(bm.deleteRowTitle);
    await waitFor(() => expect(within(confirm).queryByText(em.referencesChecking)).toBeNull());
    expect(within(confirm).getByText(bm.deleteRowMessage)).toBeTruthy();
    expect(within(confirm).getByText(bm.deleteRowMessage).parentElement?.querySelectorAll('p')).toHaveLength(
      1,
    );
  });

  it('says when it could not check, and still lets the person delete', async () => {
    api.on('POST', `${TABLE_PATH}/references`, fail(500, 'The database did not answer.'));
    renderEditor({ mode: 'edit', row: ada });
    await dialog(em.editTitle);
    fireEvent.click(button(em.deleteRow));
    const confirm = await dialog(bm.deleteRowTitle);
    expect(
      await within(confirm).findByText(em.referencesUnchecked('The database did not answer.')),
    ).toBeTruthy();
    expect(within(confirm).getByRole('button', { name: em.delete })).toHaveProperty('disabled', false);
  });
});

describe('adding a row', () => {
  it('shows "Add row" without History, Copy or Delete; Save checks the whole form', async () => {
    renderEditor({ mode: 'add' });
    const editor = await dialog(em.addTitle);
    expect(within(editor).queryByRole('tab', { name: em.historyTab })).toBeNull();
    expect(screen.queryByRole('button', { name: em.copyRow })).toBeNull();
    expect(screen.queryByRole('button', { name: em.deleteRow })).toBeNull();
    // Foreign keys can be chosen in a new row.
    expect(input('country_code').readOnly).toBe(false);
    type('first_name', 'Grace');
    fireEvent.click(button(em.saveChanges));
    expect(await screen.findByText(fm.required('email'))).toBeTruthy();
    expect(screen.getByText(fm.required('country_code'))).toBeTruthy();
    expect(screen.getByText(fm.required('created_at'))).toBeTruthy();
    // A column with a default may stay empty; bit is never required.
    expect(screen.queryByText(fm.required('loyalty_points'))).toBeNull();
    expect(screen.queryByText(fm.required('is_active'))).toBeNull();
    expect(calls('POST', TABLE_PATH)).toHaveLength(0);
  });

  it('lists every option, the typed term’s matches first and the others after (spec 000 §9)', async () => {
    renderEditor({ mode: 'add' });
    await dialog(em.addTitle);
    fireEvent.click(input('country_code'));
    type('country_code', 'Ger');
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => url.includes('column=country_code&term=Ger'))).toBe(true),
    );
    await waitFor(() =>
      expect(screen.getAllByRole('option', { hidden: true }).map((o) => o.textContent)).toEqual([
        'GermanyDE',
        'FranceFR',
        'United KingdomGB',
      ]),
    );
    // The others under their own heading.
    expect(screen.getByText(em.otherOptions)).toBeTruthy();
    fireEvent.click(await screen.findByRole('option', { name: /Germany/, hidden: true }));
    await waitFor(() => expect(input('country_code').value).toBe('Germany'));
  });

  it('loads 25 more options when the list is scrolled to its end (spec 000 §9)', async () => {
    api.on('GET', `${TABLE_PATH}/foreignkeys`, (request) => {
      const page = Number(request.query.get('page') ?? 1);
      return ok({ ...choices('', page), hasMore: page === 1 });
    });
    renderEditor({ mode: 'add' });
    await dialog(em.addTitle);
    fireEvent.click(input('country_code'));
    const list = await screen.findByRole('listbox', { name: em.optionsOf('country_code'), hidden: true });
    await screen.findAllByRole('option', { hidden: true });
    fireEvent.scroll(list);
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => /column=country_code.*page=2/.test(url))).toBe(true),
    );
  });

  it('says so when nothing matches, and still lists every option', async () => {
    renderEditor({ mode: 'add' });
    await dialog(em.addTitle);
    fireEvent.click(input('country_code'));
    type('country_code', 'Atl');
    expect(await screen.findByText(em.noMatch('Atl'))).toBeTruthy();
    expect(screen.getAllByRole('option', { hidden: true })).toHaveLength(3);
  });

  it('keeps text that names no option with a message, and saves nothing while it stands (issue 32)', async () => {
    renderEditor({ mode: 'add' }, customersTable({}, withoutCreatedAt()));
    await dialog(em.addTitle);
    type('first_name', 'Grace');
    type('email', 'grace@example.com');
    fireEvent.focus(input('country_code'));
    type('country_code', 'Atlantis');
    fireEvent.blur(input('country_code'));
    expect(await screen.findByText(em.notAnOption('Atlantis'))).toBeTruthy();
    expect(input('country_code').value).toBe('Atlantis');
    fireEvent.click(button(em.saveChanges));
    await waitFor(() => expect(document.activeElement).toBe(input('country_code')));
    expect(calls('POST', TABLE_PATH)).toHaveLength(0);

    // The exact name of one option (in any case) chooses it on leaving.
    type('country_code', 'france');
    await screen.findByRole('option', { name: /France/, hidden: true });
    fireEvent.blur(input('country_code'));
    await waitFor(() => expect(screen.queryByText(/is not one of the options/)).toBeNull());
    await waitFor(() => expect(input('country_code').value).toBe('France'));
    fireEvent.click(button(em.saveChanges));
    await screen.findByText(bm.savedChanges);
    expect(calls('POST', TABLE_PATH)).toMatchObject([{ first_name: 'Grace', country_code: 'FR' }]);
  });

  it("shows each column's default: a BIT NOT NULL DEFAULT 1 switch on, the number, and what the database sets", async () => {
    renderEditor({ mode: 'add' });
    await dialog(em.addTitle);
    expect(screen.getByRole<HTMLInputElement>('switch', { name: 'is_active' }).checked).toBe(true);
    expect(input('loyalty_points').value).toBe('0');
    expect(input('customer_id').placeholder).toBe(em.setByDatabase);
    expect(input('first_name').placeholder).toBe('null');
    // Nothing changed yet: no banner.
    expect(screen.queryByText(bm.pendingChanges.trim())).toBeNull();
  });

  it('after a successful insert the editor edits the saved row (History appears)', async () => {
    renderEditor({ mode: 'add' }, customersTable({}, withoutCreatedAt()));
    await dialog(em.addTitle);
    type('first_name', 'Grace');
    type('email', 'grace@example.com');
    fireEvent.click(input('country_code'));
    fireEvent.click(await screen.findByRole('option', { name: /France/, hidden: true }));
    fireEvent.click(button(em.saveChanges));
    expect(await screen.findByText(bm.savedChanges)).toBeTruthy();
    const [body] = calls('POST', TABLE_PATH) as Row[];
    // The defaults shown (is_active on, loyalty_points 0) are what is saved.
    expect(body).toMatchObject({
      first_name: 'Grace',
      email: 'grace@example.com',
      country_code: 'FR',
      is_active: true,
      loyalty_points: 0,
    });
    expect(body).not.toHaveProperty('customer_id');
    expect(await dialog(em.editTitle)).toBeTruthy();
    expect(screen.getByRole('tab', { name: em.historyTab })).toBeTruthy();
    expect(input('country_code').readOnly).toBe(true);
  });

  it("says 'No Options Available' when the person may not read the referenced table", async () => {
    api.on('GET', `${TABLE_PATH}/foreignkeys`, ok(choices('', 1, false)));
    renderEditor({ mode: 'add' });
    await dialog(em.addTitle);
    fireEvent.click(input('country_code'));
    expect(await screen.findByText(bm.noOptions)).toBeTruthy();
  });
});

describe('the message rule (spec 000 §5)', () => {
  it('shows a message once the field is left (touched), not before', async () => {
    renderEditor({ mode: 'add' });
    await dialog(em.addTitle);
    expect(screen.queryByText(fm.required('email'))).toBeNull();
    fireEvent.focus(input('email'));
    fireEvent.blur(input('email'));
    expect(await screen.findByText(fm.required('email'))).toBeTruthy();
    expect(screen.queryByText(fm.required('first_name'))).toBeNull();
  });
});

describe('copying a row', () => {
  it('turns the row into a new one without identity, guid or computed values, and saves it as new', async () => {
    renderEditor({ mode: 'edit', row: ada });
    await dialog(em.editTitle);
    fireEvent.click(button(em.copyRow));
    expect(await dialog(em.addTitle)).toBeTruthy();
    expect(input('customer_id').value).toBe('');
    expect(input('customer_guid').value).toBe('');
    expect(input('full_name').value).toBe('');
    expect(input('first_name').value).toBe('Ada');
    expect(screen.getByText(bm.pendingChanges.trim())).toBeTruthy();
    fireEvent.click(button(em.saveChanges));
    expect(await screen.findByText(bm.savedChanges)).toBeTruthy();
    const [body] = calls('POST', TABLE_PATH) as Row[];
    expect(body).not.toHaveProperty('customer_id');
    expect(body).not.toHaveProperty('customer_guid');
    expect(body).not.toHaveProperty('full_name');
    expect(body).toMatchObject({ first_name: 'Ada', country_code: 'GB', credit_limit: '1500.50' });
  });

  it('Discard after Copy goes back to the row copied', async () => {
    renderEditor({ mode: 'edit', row: ada });
    await dialog(em.editTitle);
    fireEvent.click(button(em.copyRow));
    await dialog(em.addTitle);
    fireEvent.click(button(em.discardChanges));
    expect(await dialog(em.editTitle)).toBeTruthy();
    expect(input('customer_id').value).toBe('7');
  });
});

describe('rights and read-only rows', () => {
  it('without CanUpdate the row is read-only, with no Save; without CanInsert or CanDelete no Copy or Delete', async () => {
    renderEditor(
      { mode: 'edit', row: ada },
      customersTable({ canUpdate: false, canInsert: false, canDelete: false }),
    );
    await dialog(em.editTitle);
    expect(screen.getByText(em.readOnlyRow)).toBeTruthy();
    expect(input('first_name').readOnly).toBe(true);
    expect(textarea('notes').readOnly).toBe(true);
    expect(screen.getByRole<HTMLInputElement>('switch', { name: 'is_active' }).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: em.copyRow })).toBeNull();
    expect(screen.queryByRole('button', { name: em.deleteRow })).toBeNull();
    expect(screen.queryByRole('button', { name: em.saveChanges })).toBeNull();
  });

  it('every column of a row without identity or guid is read-only (it can still be deleted)', async () => {
    const row = { product_id: 1, tag_id: 2, added_on: '2024-01-01' };
    renderEditor({ mode: 'edit', row }, productTagsTable());
    await dialog(em.editTitle);
    expect(screen.getByText(em.noChangeWithoutKey)).toBeTruthy();
    expect(input('product_id').readOnly).toBe(true);
    expect(input('tag_id').readOnly).toBe(true);
    expect(button(em.deleteRow)).toBeTruthy();
  });
});

describe('fields', () => {
  it('a number keeps its decimals exact and sends the text typed', async () => {
    renderEditor({ mode: 'edit', row: ada });
    await dialog(em.editTitle);
    type('credit_limit', '2000.25');
    fireEvent.click(button(em.saveChanges));
    await screen.findByText(bm.savedChanges);
    expect(calls('POST', TABLE_PATH)).toEqual([{ customer_id: 7, credit_limit: '2000.25' }]);
  });

  it('an image: chosen file read as base64 without the data: prefix, previewed, and cleared', async () => {
    renderEditor({ mode: 'edit', row: ada });
    await dialog(em.editTitle);
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const base64 = btoa(String.fromCharCode(...bytes));
    fireEvent.change(input('photo'), {
      target: { files: [new File([bytes], 'p.png', { type: 'image/png' })] },
    });
    const preview = await screen.findByRole('img', { name: em.imagePreview('photo') });
    expect(preview.getAttribute('src')).toBe(`data:image/png;base64,${base64}`);
    fireEvent.click(button(em.saveChanges));
    await screen.findByText(bm.savedChanges);
    expect(calls('POST', TABLE_PATH)).toEqual([{ customer_id: 7, photo: base64 }]);
    fireEvent.click(button(em.clearImage));
    await waitFor(() => expect(screen.queryByRole('img', { name: em.imagePreview('photo') })).toBeNull());
  });

  it('an image stored without a data: prefix and unknown bytes is shown as jpeg', async () => {
    renderEditor({ mode: 'edit', row: { ...ada, photo: 'AAAA' } });
    const preview = await screen.findByRole('img', { name: em.imagePreview('photo') });
    expect(preview.getAttribute('src')).toBe('data:image/jpeg;base64,AAAA');
  });

  it('a switch sends true or false', async () => {
    renderEditor({ mode: 'edit', row: ada });
    await dialog(em.editTitle);
    fireEvent.click(screen.getByRole('switch', { name: 'is_active' }));
    fireEvent.click(button(em.saveChanges));
    await screen.findByText(bm.savedChanges);
    expect(calls('POST', TABLE_PATH)).toEqual([{ customer_id: 7, is_active: false }]);
  });

  it('a time is sent as HH:mm:ss; an emptied nullable text as null', async () => {
    renderEditor({ mode: 'edit', row: { ...ada, notes: 'old' } });
    await dialog(em.editTitle);
    type('preferred_contact_time', '10:45');
    fireEvent.change(textarea('notes'), { target: { value: '' } });
    fireEvent.click(button(em.saveChanges));
    await screen.findByText(bm.savedChanges);
    expect(calls('POST', TABLE_PATH)).toEqual([
      { customer_id: 7, preferred_contact_time: '10:45:00', notes: null },
    ]);
  });
});
