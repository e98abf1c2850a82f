import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import type { AuditEntryView, AuditRows } from '#common/contract/admin.ts';
import { AuditPage } from './audit-page.tsx';
import { renderPage } from '#web/test/render-page.tsx';
import { fakeApi, ok } from '#web/test/fake-api.ts';

/*
 * A bulk change in the audit trail (issue 38) against a stubbed fetch: one line saying what it did, a detail naming
 * its filter and set, its rows a page at a time with Show more, and its undo as a job (the server's message, the
 * trail read again).
 */

const entry = (id: number, fields: Partial<AuditEntryView>): AuditEntryView => ({
  id,
  at: '2026-12-03T10:15:00.000Z',
  userId: 2,
  username: 'editor',
  action: 'data.bulk',
  target: '/db/chinook/main/Track',
  detail: null,
  address: '127.0.0.1',
  undoneBy: null,
  state: 'done',
  ...fields,
});

const TOTAL = 120;

const entries: AuditEntryView[] = [
  entry(41, {
    action: 'data.undo',
    target: '/db/chinook/main/InvoiceLine',
    detail: { of: 39, change: 'bulk', job: 'j41', rows: 3, status: 'done', error: null },
  }),
  entry(40, {
    detail: {
      change: 'update',
      where: { column: 'GenreId', op: 'eq', value: 1 },
      keys: null,
      set: { Composer: null },
      count: TOTAL,
      capped: false,
      job: 'j40',
      rows: TOTAL,
      status: 'done',
      error: null,
    },
  }),
  entry(39, {
    target: '/db/chinook/main/InvoiceLine',
    detail: {
      change: 'delete',
      where: { column: 'InvoiceId', op: 'eq', value: 7 },
      keys: null,
      count: 3,
      capped: false,
      job: 'j39',
      rows: 3,
      status: 'done',
      error: null,
    },
    undoneBy: 41,
  }),
  entry(38, {
    detail: {
      change: 'update',
      where: { and: [] },
      keys: null,
      set: { Milliseconds: 0 },
      count: 3503,
      capped: false,
      job: 'j38',
      rows: 900,
      status: 'running',
      error: null,
    },
  }),
];

/** Track rows 1…TOTAL: Composer "Composer n" before, null after. */
function rowsPage(offset: number, limit: number): AuditRows {
  const ids = Array.from({ length: Math.max(0, Math.min(limit, TOTAL - offset)) }, (_, i) => offset + i + 1);
  return {
    rows: ids.map((id) => ({
      key: { TrackId: id },
      before: { TrackId: id, Name: `Track ${id}`, Composer: `Composer ${id}` },
      after: { TrackId: id, Name: `Track ${id}`, Composer: null },
    })),
    total: TOTAL,
    nextOffset: offset + ids.length < TOTAL ? offset + ids.length : null,
  };
}

const api = fakeApi();

beforeEach(() => {
  notifications.clean();
  api.on('GET', '/api/admin/audit', ok({ results: entries, count: entries.length }));
  api.on('GET', '/api/admin/tables', ok([]));
  api.on('GET', '/api/admin/users', ok({ results: [], count: 0 }));
  api.on('GET', '/api/admin/audit/:id/rows', (request) =>
    ok(rowsPage(Number(request.query.get('offset') ?? 0), Number(request.query.get('limit') ?? 100))),
  );
});

function renderAudit() {
  window.history.replaceState(null, '', '/admin/audit');
  renderPage(<AuditPage />, { at: '/admin/audit', path: '/admin/audit' });
}

async function open(id: number) {
  fireEvent.click(await screen.findByRole('button', { name: `Show entry ${id}` }));
  return screen.findByRole('region', { name: `Entry ${id}` });
}

const rowCalls = () =>
  api.requests('GET', '/api/admin/audit/:id/rows').map((request) => request.url.split('?')[1]);

describe('a bulk change in the audit trail', () => {
  it('reads as one line saying what it did, and where an unfinished one stands', async () => {
    renderAudit();
    const table = await screen.findByRole('table', { name: 'Audit trail' });
    expect(
      within(table).getByText('Set Composer = NULL on 120 rows of Track where GenreId = 1'),
    ).toBeTruthy();
    expect(within(table).getByText('Deleted 3 rows of InvoiceLine where InvoiceId = 7')).toBeTruthy();
    expect(within(table).getByText('Set Milliseconds = 0 on 3,503 rows of Track — running')).toBeTruthy();
    expect(within(table).getByText('Undid bulk change #39: put back 3 rows of InvoiceLine')).toBeTruthy();
    // No row list is asked for until an entry is opened.
    expect(rowCalls()).toEqual([]);
  });

  it('opens to its filter and set in words and its rows a page at a time', async () => {
    renderAudit();
    const region = await open(40);
    expect(within(region).getByText('GenreId = 1')).toBeTruthy();
    expect(within(region).getByText('Composer = NULL')).toBeTruthy();
    expect(within(region).getByText('Counted at the start')).toBeTruthy();
    const rows = await within(region).findByRole('table', { name: 'Row changes' });
    expect(
      within(rows)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Row', 'Before', 'After']);
    expect(within(rows).getByText('The first 50 rows of 120 rows, in key order')).toBeTruthy();
    const first = within(rows).getByRole('rowheader', { name: 'TrackId 1' }).closest('tr')!;
    // Only the changed field, before and after; the unchanged Name is left out.
    expect(within(first).getByText('Composer 1')).toBeTruthy();
    expect(within(first).getAllByText('Composer')).toHaveLength(2);
    expect(within(first).getByText('null')).toBeTruthy();
    expect(within(first).queryByText('Track 1')).toBeNull();
    expect(within(rows).queryByRole('rowheader', { name: 'TrackId 51' })).toBeNull();

    fireEvent.click(within(region).getByRole('button', { name: 'Show more rows' }));
    expect(await within(rows).findByRole('rowheader', { name: 'TrackId 51' })).toBeTruthy();
    fireEvent.click(within(region).getByRole('button', { name: 'Show more rows' }));
    expect(await within(rows).findByRole('rowheader', { name: 'TrackId 120' })).toBeTruthy();
    expect(within(rows).getByText('All 120 rows, in key order')).toBeTruthy();
    expect(within(region).queryByRole('button', { name: 'Show more rows' })).toBeNull();
    expect(rowCalls()).toEqual(['offset=0&limit=50', 'offset=50&limit=50', 'offset=100&limit=50']);
  });

  it('shows a deleted row whole, and the undo of a bulk change with its rows', async () => {
    api.on(
      'GET',
      '/api/admin/audit/39/rows',
      ok({
        rows: [{ key: { InvoiceLineId: 5 }, before: { InvoiceLineId: 5, Quantity: 2 }, after: null }],
        total: 1,
        nextOffset: null,
      }),
    );
    renderAudit();
    const deleted = await open(39);
    const rows = await within(deleted).findByRole('table', { name: 'Row changes' });
    const row = within(rows).getByRole('rowheader', { name: 'InvoiceLineId 5' }).closest('tr')!;
    expect(within(row).getByText('Quantity')).toBeTruthy();
    expect(within(row).getByText('deleted')).toBeTruthy();
    expect(within(deleted).getByText(/Undone by/).textContent).toBe('Undone by #41');
    const undo = await open(41);
    expect(within(undo).getByText('entry #39')).toBeTruthy();
    expect(within(undo).getByText('Rows put back')).toBeTruthy();
    expect(await within(undo).findByRole('table', { name: 'Row changes' })).toBeTruthy();
    expect(within(undo).queryByRole('button', { name: /Undo|Restore/ })).toBeNull();
  });

  it('offers no undo while it runs', async () => {
    renderAudit();
    const running = await open(38);
    expect(within(running).getByText('Running')).toBeTruthy();
    expect(within(running).queryByRole('button', { name: /Undo|Restore/ })).toBeNull();
  });

  it('undoes it as a job: the server’s message, and the trail read again', async () => {
    api.on(
      'POST',
      '/api/admin/audit/:id/undo',
      ok(
        { undoEntryId: 42, change: 'update', key: {}, row: null, keptKey: true, jobId: 'c0ffee' },
        'The undo of the bulk change is running.',
      ),
    );
    renderAudit();
    const region = await open(40);
    const before = api.requests('GET', '/api/admin/audit').length;
    fireEvent.click(within(region).getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('The undo of the bulk change is running.')).toBeTruthy();
    await waitFor(() => expect(api.requests('GET', '/api/admin/audit').length).toBeGreaterThan(before));
    expect(api.requests('POST', '/api/admin/audit/40/undo')).toHaveLength(1);
  });
});
