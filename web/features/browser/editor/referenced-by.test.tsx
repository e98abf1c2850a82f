import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Reference } from '#common/contract/relations.ts';
import type { Column, Row, TableListItem } from '#common/contract/sql.ts';
import { testColumn } from '#web/features/browser/test-tables.ts';
import { readWhereParam } from '#web/features/browser/filter/where-param.ts';
import { editorMessages as em } from './editor-messages.ts';
import { ReferencedBy } from './referenced-by.tsx';
import { renderPage } from '#web/test/render-page.tsx';
import { fail, fakeApi, ok } from '#web/test/fake-api.ts';

/*
 * The editor's Referenced-by tab (issue 37) against the fake API: each entry's table, columns, count in its four forms
 * and ON DELETE rule in words; each a link to the referencing grid filtered by `where=` to the rows that point here.
 */

const column = (id: number, name: string, extra: Partial<Column> = {}): Column =>
  testColumn(id, name, { type: 'text', maxLength: 40, ...extra });

const customer: TableListItem = {
  id: 'chinook/main/Customer',
  schema: 'main',
  name: 'Customer',
  isView: false,
  numberOfColumns: 3,
  numberOfRows: 59,
  numberOfRowsIsEstimate: false,
  hasIdentity: true,
  hasGuid: false,
  primaryKey: ['CustomerId'],
  identityColumn: 'CustomerId',
  guidColumn: null,
  columns: [
    column(1, 'CustomerId', { type: 'integer', typeGroup: 'Number', isIdentity: true, isPrimaryKey: true }),
    column(2, 'Region'),
    column(3, 'LastName'),
  ],
  indexes: [],
  foreignKeys: [],
  rights: { canInsert: true, canUpdate: true, canDelete: true },
};

const row: Row = { CustomerId: 12, Region: 'EU', LastName: 'Almeida' };

const reference = (fields: Partial<Reference>): Reference => ({
  schema: 'main',
  table: 'Invoice',
  columns: ['CustomerId'],
  referencedColumns: ['CustomerId'],
  constraint: 'FK_Invoice_Customer',
  onDelete: 'no action',
  count: 7,
  capped: false,
  ...fields,
});

const answers: Reference[] = [
  reference({}),
  reference({ schema: 'billing', table: 'Refund', constraint: 'FK_Refund', onDelete: 'restrict', count: 1 }),
  reference({ table: 'Event', constraint: 'FK_Event', onDelete: 'cascade', count: 1000, capped: true }),
  reference({ table: 'Note', constraint: 'FK_Note', onDelete: 'set null', count: null }),
  reference({
    table: 'Pair',
    columns: ['PairCustomer', 'PairRegion'],
    referencedColumns: ['CustomerId', 'Region'],
    constraint: 'FK_Pair',
    onDelete: 'set default',
    count: 0,
  }),
];

const api = fakeApi();

function renderTab(onFollow = vi.fn()) {
  const view = renderPage(<ReferencedBy db="chinook" table={customer} row={row} onFollow={onFollow} />);
  return { onFollow, view };
}

const entry = (name: string) =>
  screen.getAllByRole('listitem').find((item) => within(item).queryByText(name, { exact: true }))!;
const whereOf = (link: HTMLElement) => {
  const url = new URL(link.getAttribute('href') ?? '', 'http://localhost');
  return { path: url.pathname, where: readWhereParam(url.searchParams.get('where'))?.json };
};

describe('the Referenced by tab', () => {
  it('asks with the row key alone and lists each referencing table with its count, columns and rule', async () => {
    api.on('POST', '/api/sql/chinook/main/Customer/references', ok(answers));
    renderTab();
    const list = await screen.findByRole('list', { name: em.referencesList });
    expect(within(list).getAllByRole('listitem')).toHaveLength(5);
    expect(api.requests('POST', '/api/sql/chinook/main/Customer/references').map((r) => r.body)).toEqual([
      { CustomerId: 12 },
    ]);

    expect(within(entry('Invoice')).getByText('7 rows')).toBeTruthy();
    expect(within(entry('Invoice')).getByText('CustomerId → CustomerId')).toBeTruthy();
    expect(within(entry('Invoice')).getByText(em.onDelete('no action'))).toBeTruthy();
    // Another schema than the row's is named.
    expect(within(entry('billing.Refund')).getByText('1 row')).toBeTruthy();
    expect(within(entry('Event')).getByText('1,000+ rows')).toBeTruthy();
    expect(within(entry('Event')).getByText(em.onDelete('cascade'))).toBeTruthy();
    expect(within(entry('Note')).getByText(em.notCounted)).toBeTruthy();
    expect(within(entry('Note')).getByText(em.notCountedReason)).toBeTruthy();
    expect(within(entry('Pair')).getByText('0 rows')).toBeTruthy();
    expect(within(entry('Pair')).getByText('PairCustomer, PairRegion → CustomerId, Region')).toBeTruthy();
  });

  it('links each entry to the referencing grid filtered to these rows (where=, ANDed for a composite key)', async () => {
    api.on('POST', '/api/sql/chinook/main/Customer/references', ok(answers));
    const { onFollow, view } = renderTab();
    await screen.findByRole('list', { name: em.referencesList });
    const invoice = within(entry('Invoice')).getByRole('link');
    expect(whereOf(invoice)).toEqual({
      path: '/db/chinook/main/Invoice',
      where: { column: 'CustomerId', op: 'eq', value: 12 },
    });
    expect(whereOf(within(entry('billing.Refund')).getByRole('link')).path).toBe(
      '/db/chinook/billing/Refund',
    );
    expect(whereOf(within(entry('Pair')).getByRole('link')).where).toEqual({
      and: [
        { column: 'PairCustomer', op: 'eq', value: 12 },
        { column: 'PairRegion', op: 'eq', value: 'EU' },
      ],
    });
    // A real link: the router goes there, and the editor is told.
    fireEvent.click(invoice);
    expect(onFollow).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/db/chinook/main/Invoice'));
    expect(view.router.state.location.search).toMatch(/^\?where=[A-Za-z0-9_-]+$/);
  });

  it('shows no link where the referenced value is empty', async () => {
    api.on(
      'POST',
      '/api/sql/chinook/main/Customer/references',
      ok([reference({ columns: ['R'], referencedColumns: ['Region'], table: 'ByRegion', count: 0 })]),
    );
    renderPage(
      <ReferencedBy db="chinook" table={customer} row={{ ...row, Region: null }} onFollow={vi.fn()} />,
    );
    expect(await screen.findByText(em.referencesNoValue)).toBeTruthy();
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('says when no readable table references the row', async () => {
    api.on('POST', '/api/sql/chinook/main/Customer/references', ok([]));
    renderTab();
    expect(await screen.findByText(em.referencesNone)).toBeTruthy();
  });

  it("says the server's reason when the call fails", async () => {
    api.on(
      'POST',
      '/api/sql/chinook/main/Customer/references',
      fail(403, 'You do not have access to this table.'),
    );
    renderTab();
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'You do not have access to this table.',
    );
  });
});
