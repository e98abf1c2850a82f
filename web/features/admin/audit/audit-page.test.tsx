import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import type { AuditEntryView } from '#common/contract/admin.ts';
import { AuditPage } from './audit-page.tsx';
import { renderPage } from '#web/test/render-page.tsx';
import { fail, fakeApi, ok, type FakeAnswer } from '#web/test/fake-api.ts';

// jsdom with Mantine's comboboxes is slow on a shared machine.

/*
 * The audit trail against a stubbed fetch: entries open to their changes (changed fields marked), the filters go
 * into the address and back to page 1, Undo/Restore only where the server would undo, the server's words as toasts.
 */

const entry = (id: number, fields: Partial<AuditEntryView> = {}): AuditEntryView => ({
  id,
  at: '2026-11-24T10:15:00.000Z',
  userId: 2,
  username: 'editor',
  action: 'data.update',
  target: '/db/chinook/main/Genre',
  detail: {
    key: { GenreId: 1 },
    before: { GenreId: 1, Name: 'Rock', Note: 'loud' },
    after: { GenreId: 1, Name: 'Rock & Roll', Note: 'loud' },
  },
  address: '127.0.0.1',
  undoneBy: null,
  state: 'done',
  ...fields,
});

const entries: AuditEntryView[] = [
  entry(12),
  entry(11, {
    action: 'data.insert',
    detail: { key: { GenreId: 30 }, before: null, after: { GenreId: 30, Name: 'Polka' } },
  }),
  entry(10, {
    action: 'data.delete',
    detail: { key: { GenreId: 29 }, before: { GenreId: 29, Name: 'Ska' }, after: null },
  }),
  entry(9, { action: 'data.update', undoneBy: 13 }),
  entry(8, {
    action: 'data.undo',
    detail: { of: 7, change: 'update', key: { GenreId: 1 }, before: { Name: 'B' }, after: { Name: 'A' } },
  }),
  entry(7, { state: 'pending' }),
  entry(6, {
    action: 'account.locked',
    username: null,
    target: 'user:4',
    detail: { until: '2026-11-24T10:30:00.000Z', after: 5 },
  }),
];

const api = fakeApi();
const fetchMock = api.fetch;
let undoAnswer: () => FakeAnswer;

const undoResult = {
  undoEntryId: 13,
  change: 'update',
  key: { GenreId: 1 },
  row: { GenreId: 1, Name: 'Rock' },
  keptKey: true,
};

beforeEach(() => {
  notifications.clean();
  undoAnswer = () => ok(undoResult, 'Undone: Name has its earlier value again.');
  api.on('GET', '/api/admin/audit', ok({ results: entries, count: 47 }));
  api.on(
    'GET',
    '/api/admin/tables',
    ok([
      {
        TableId: 'chinook/main/Genre',
        database: 'chinook',
        schema: 'main',
        name: 'Genre',
        isView: false,
      },
    ]),
  );
  api.on('GET', '/api/admin/users', ok({ results: [], count: 0 }));
  api.on('POST', '/api/admin/audit/:id/undo', () => undoAnswer());
});
afterEach(() => {
  window.history.replaceState(null, '', '/');
});

function renderAudit(at = '/admin/audit') {
  window.history.replaceState(null, '', at);
  return renderPage(<AuditPage />, { at, path: '/admin/audit' }).router;
}

/** The address as the page wrote it (replaceState, no navigation). */
const search = () => new URLSearchParams(window.location.search);
const auditCalls = () =>
  fetchMock.mock.calls
    .map(([input]) => new URL(input, 'http://localhost'))
    .filter((url) => url.pathname === '/api/admin/audit')
    .map((url) => url.search);

async function open(id: number) {
  fireEvent.click(await screen.findByRole('button', { name: `Show entry ${id}` }));
  return screen.findByRole('region', { name: `Entry ${id}` });
}

describe('the audit trail', () => {
  it('lists the entries in words with their state, 20 a page', async () => {
    renderAudit();
    const table = await screen.findByRole('table', { name: 'Audit trail' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['When', 'User', 'Action', 'Target', 'State']);
    expect(within(table).getAllByText('Row changed').length).toBeGreaterThan(0);
    expect(within(table).getByText('Account locked')).toBeTruthy();
    expect(within(table).getByText('deleted account')).toBeTruthy();
    expect(within(table).getByText('user 4')).toBeTruthy();
    expect(within(table).getByText('Pending')).toBeTruthy();
    const pages = screen.getByRole('navigation', { name: 'Pages' });
    expect(within(pages).getByRole('button', { name: 'Page 3' })).toBeTruthy();
    expect(within(pages).queryByRole('button', { name: 'Page 4' })).toBeNull();
    expect(auditCalls()[0]).toBe('?page=1&pageSize=20');
  });

  it('compares an update field by field and marks only the changed ones', async () => {
    renderAudit();
    const region = await open(12);
    const changes = within(region).getByRole('table', { name: 'Changes' });
    expect(
      within(changes)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Field', 'Before', 'After']);
    const nameRow = within(changes).getByRole('rowheader', { name: /Name/ }).closest('tr')!;
    expect(within(nameRow).getByText('changed')).toBeTruthy();
    expect(within(nameRow).getByText('Rock')).toBeTruthy();
    expect(within(nameRow).getByText('Rock & Roll')).toBeTruthy();
    const noteRow = within(changes).getByRole('rowheader', { name: /Note/ }).closest('tr')!;
    expect(within(noteRow).queryByText('changed')).toBeNull();
    expect(within(region).getByText('GenreId 1')).toBeTruthy();
    expect(within(region).getByText('127.0.0.1')).toBeTruthy();
    expect(within(region).getByRole('button', { name: 'Undo' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Show entry 12' }).getAttribute('aria-expanded')).toBe('true');
  });

  it('shows an insert’s After only, a delete’s Before only with Restore, and other details as a list', async () => {
    renderAudit();
    const insert = within(await open(11)).getByRole('table', { name: 'Changes' });
    expect(
      within(insert)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Field', 'After']);
    const deleted = await open(10);
    expect(
      within(within(deleted).getByRole('table', { name: 'Changes' }))
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Field', 'Before']);
    expect(within(deleted).getByRole('button', { name: 'Restore' })).toBeTruthy();
    const locked = await open(6);
    expect(within(locked).queryByRole('table', { name: 'Changes' })).toBeNull();
    expect(within(locked).getByText('until')).toBeTruthy();
    expect(within(locked).getByText('2026-11-24T10:30:00.000Z')).toBeTruthy();
    expect(within(locked).queryByRole('button', { name: /Undo|Restore/ })).toBeNull();
  });

  it('opens a row with Enter or Space on it', async () => {
    renderAudit();
    const row = (await screen.findByRole('button', { name: 'Show entry 11' })).closest('tr')!;
    fireEvent.keyDown(row, { key: 'Enter' });
    expect(await screen.findByRole('region', { name: 'Entry 11' })).toBeTruthy();
    fireEvent.keyDown(row, { key: ' ' });
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Entry 11' })).toBeNull());
  });

  it('offers no undo for an undo, an undone change or one not confirmed yet', async () => {
    renderAudit();
    const undone = await open(9);
    expect(within(undone).getByText(/Undone by/).textContent).toBe('Undone by #13');
    expect(within(undone).queryByRole('button', { name: 'Undo' })).toBeNull();
    const undo = await open(8);
    expect(within(undo).getByText('entry #7')).toBeTruthy();
    expect(within(undo).queryByRole('button', { name: 'Undo' })).toBeNull();
    const pending = await open(7);
    expect(within(pending).queryByRole('button', { name: 'Undo' })).toBeNull();
  });

  it('undoes a change and says what the server did, in green', async () => {
    renderAudit();
    fireEvent.click(within(await open(12)).getByRole('button', { name: 'Undo' }));
    const toast = await screen.findByText('Undone: Name has its earlier value again.');
    expect(toast.closest('.mantine-Notification-root')?.getAttribute('style') ?? '').toMatch(/green/);
    expect(
      fetchMock.mock.calls.some(
        ([input, init]) => input.endsWith('/api/admin/audit/12/undo') && init.method === 'POST',
      ),
    ).toBe(true);
  });

  it('shows the server’s refusal as it comes, in red', async () => {
    undoAnswer = () =>
      fail(
        409,
        'The row has changed since (Name), so undoing would overwrite newer values. Change it in the table instead.',
      );
    renderAudit();
    fireEvent.click(within(await open(10)).getByRole('button', { name: 'Restore' }));
    const toast = await screen.findByText(/The row has changed since \(Name\)/);
    expect(toast.closest('.mantine-Notification-root')?.getAttribute('style') ?? '').toMatch(/red/);
  });

  it('puts the filters into the address and goes back to page 1', async () => {
    renderAudit('/admin/audit?page=3');
    await screen.findByRole('table', { name: 'Audit trail' });
    expect(auditCalls()[0]).toBe('?page=3&pageSize=20');
    const form = screen.getByRole('form', { name: 'Audit filters' });

    fireEvent.click(within(form).getByRole('combobox', { name: 'Actions' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Wrong password', hidden: true }));
    await waitFor(() => expect(search().get('action')).toBe('sign-in.password-failed'));
    expect(search().get('page')).toBeNull();
    await waitFor(() => expect(auditCalls()).toContain('?page=1&pageSize=20&action=sign-in.password-failed'));

    fireEvent.click(within(form).getByRole('combobox', { name: 'Table' }));
    fireEvent.click(await screen.findByRole('option', { name: 'chinook.main.Genre', hidden: true }));
    await waitFor(() => expect(search().get('table')).toBe('chinook/main/Genre'));
    expect(search().get('action')).toBe('sign-in.password-failed');

    fireEvent.click(
      within(screen.getByRole('navigation', { name: 'Pages' })).getByRole('button', { name: 'Page 2' }),
    );
    await waitFor(() => expect(search().get('page')).toBe('2'));

    fireEvent.click(within(form).getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(window.location.search).toBe(''));
  });

  it('shows the filters of the address, a date in local time', async () => {
    renderAudit('/admin/audit?userId=4&from=2026-11-24T10:00:00.000Z');
    const form = await screen.findByRole('form', { name: 'Audit filters' });
    await waitFor(() =>
      expect(within(form).getByRole<HTMLInputElement>('combobox', { name: 'User' }).value).toBe('User 4'),
    );
    const local = new Date('2026-11-24T10:00:00.000Z');
    const pad = (n: number) => String(n).padStart(2, '0');
    expect(within(form).getByRole('button', { name: 'From' }).textContent).toContain(
      `${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())} ${pad(local.getHours())}:${pad(local.getMinutes())}`,
    );
    expect(auditCalls()[0]).toBe('?page=1&pageSize=20&userId=4&from=2026-11-24T10%3A00%3A00.000Z');
  });
});
