import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import type { Column, TableListItem } from '#common/contract/sql.ts';
import { TableInfoModal } from './table-info-modal.tsx';
import { renderPage } from '#web/test/render-page.tsx';

function column(id: number, name: string, overrides: Partial<Column>): Column {
  return {
    id,
    name,
    type: 'int',
    typeGroup: 'Number',
    maxLength: 0,
    precision: 10,
    scale: 0,
    isNullable: false,
    isIndexed: false,
    isForeignKey: false,
    isForeignKeySource: false,
    isGuid: false,
    isIdentity: false,
    isHidden: false,
    isComputed: false,
    isPrimaryKey: false,
    defaultValue: null,
    defaultConstant: null,
    defaultIsExpression: false,
    ...overrides,
  };
}

/** Chinook's Invoice on SQL Server, as GET api/sql/{db} answers it. */
const invoice: TableListItem = {
  id: 'Chinook/dbo/Invoice',
  schema: 'dbo',
  name: 'Invoice',
  isView: false,
  numberOfColumns: 5,
  numberOfRows: 1234567,
  numberOfRowsIsEstimate: true,
  hasIdentity: true,
  hasGuid: false,
  primaryKey: ['InvoiceId'],
  identityColumn: 'InvoiceId',
  guidColumn: null,
  columns: [
    column(1, 'InvoiceId', {
      isPrimaryKey: true,
      isIdentity: true,
      isIndexed: true,
      isForeignKeySource: true,
    }),
    column(2, 'CustomerId', { isForeignKey: true, isIndexed: true }),
    column(3, 'InvoiceDate', { type: 'datetime', typeGroup: 'Date', precision: 0 }),
    column(4, 'BillingCity', {
      type: 'nvarchar',
      typeGroup: 'Text',
      maxLength: 40,
      isNullable: true,
      precision: 0,
    }),
    column(5, 'Total', { type: 'numeric', precision: 10, scale: 2 }),
  ],
  indexes: [
    {
      name: 'PK_Invoice',
      type: 'CLUSTERED',
      isUnique: true,
      isPrimaryKey: true,
      columns: ['InvoiceId'],
      allocationType: 'IN_ROW_DATA',
      pageCount: 12840,
      averageFragmentation: 42.125,
      statisticsSource: 'sys.dm_db_index_physical_stats',
    },
    {
      name: 'IFK_InvoiceCustomerId',
      type: 'NONCLUSTERED',
      isUnique: false,
      isPrimaryKey: false,
      columns: ['CustomerId'],
      allocationType: null,
      pageCount: null,
      averageFragmentation: null,
      statisticsSource: null,
    },
  ],
  foreignKeys: [
    {
      name: 'FK_InvoiceCustomerId',
      columns: ['CustomerId'],
      referencedSchema: 'dbo',
      referencedTable: 'Customer',
      referencedColumns: ['CustomerId'],
      onDelete: 'no action',
    },
  ],
  rights: { canInsert: true, canUpdate: true, canDelete: false },
};

/** A view without keys or indexes. */
const view: TableListItem = {
  ...invoice,
  id: 'Chinook/dbo/InvoiceTotals',
  name: 'InvoiceTotals',
  isView: true,
  numberOfRows: 412,
  numberOfRowsIsEstimate: false,
  hasIdentity: false,
  primaryKey: [],
  identityColumn: null,
  columns: [column(1, 'Total', { type: 'numeric', precision: 10, scale: 2 })],
  numberOfColumns: 1,
  indexes: [],
  foreignKeys: [],
  rights: { canInsert: false, canUpdate: false, canDelete: false },
};

function renderModal(table: TableListItem | null, onClose = vi.fn()) {
  renderPage(<TableInfoModal db="Chinook" table={table} opened onClose={onClose} />);
  return onClose;
}

const row = (label: string) => screen.getByRole('rowheader', { name: label }).closest('tr');

describe('TableInfoModal', () => {
  it('is titled "Table information" with the table under it, and opens on General', async () => {
    renderModal(invoice);
    const dialog = await screen.findByRole('dialog', { name: 'Table information' });
    expect(within(dialog).getByText('dbo.Invoice')).toBeTruthy();
    const tabs = within(dialog)
      .getAllByRole('tab')
      .map((tab) => tab.textContent);
    expect(tabs).toEqual(['General', 'Keys', 'Indexes']);
    expect(screen.getByRole('tab', { name: 'General' }).getAttribute('aria-selected')).toBe('true');
  });

  it('General: database, schema, table, kind, counts with separators and "about" for an estimate', async () => {
    renderModal(invoice);
    await screen.findByRole('dialog', { name: 'Table information' });
    expect(row('Database')?.textContent).toContain('Chinook');
    expect(row('Schema')?.textContent).toContain('dbo');
    expect(row('Table')?.textContent).toContain('Invoice');
    expect(row('Kind')?.textContent).toContain('Table');
    expect(row('Columns')?.textContent).toContain('5');
    expect(row('Rows')?.textContent).toContain('about 1,234,567');
  });

  it('General: a chip per column with its type icon, type and marks', async () => {
    renderModal(invoice);
    await screen.findByRole('dialog', { name: 'Table information' });
    const chips = within(screen.getByRole('list', { name: 'Columns' })).getAllByRole('listitem');
    expect(chips).toHaveLength(5);
    const [id, customer, date, city, total] = chips;
    expect(within(id!).getByRole('img', { name: 'Number' })).toBeTruthy();
    expect(id!.textContent).toContain('InvoiceId');
    expect(id!.textContent).toContain('primary key · identity');
    expect(customer!.textContent).toContain('foreign key');
    expect(within(date!).getByRole('img', { name: 'Date' })).toBeTruthy();
    expect(date!.textContent).toContain('datetime');
    expect(within(city!).getByRole('img', { name: 'Text' })).toBeTruthy();
    expect(city!.textContent).toContain('nvarchar(40)');
    expect(city!.textContent).toContain('nullable');
    expect(total!.textContent).toContain('numeric(10,2)');
  });

  it('Keys: primary key, identity, guid, key columns and foreign keys with their target', async () => {
    renderModal(invoice);
    fireEvent.click(await screen.findByRole('tab', { name: 'Keys' }));
    expect(row('Primary key')?.textContent).toContain('InvoiceId');
    expect(row('Identity column')?.textContent).toContain('InvoiceId');
    expect(row('GUID column')?.textContent).toContain('None');
    const keyColumns = within(screen.getByRole('list', { name: 'Key columns' })).getAllByRole('listitem');
    expect(keyColumns.map((item) => item.textContent)).toEqual([
      'InvoiceId primary key · referenced by another table',
      'CustomerId foreign key',
    ]);
    const foreignKeys = screen.getByRole('list', { name: 'Foreign keys' });
    expect(foreignKeys.textContent).toContain('CustomerId → dbo.Customer(CustomerId)');
    expect(foreignKeys.textContent).toContain('FK_InvoiceCustomerId');
  });

  it('Indexes: name, type, unique, allocation, pages, a fragmentation bar, "unknown" where null', async () => {
    renderModal(invoice);
    fireEvent.click(await screen.findByRole('tab', { name: 'Indexes' }));
    const pk = screen.getByRole('article', { name: 'Index PK_Invoice' });
    expect(pk.textContent).toContain('CLUSTERED');
    expect(pk.textContent).toContain('unique');
    expect(pk.textContent).toContain('IN_ROW_DATA');
    expect(pk.textContent).toContain('12,840');
    expect(pk.textContent).toContain('42.1%');
    expect(pk.textContent).toContain('Figures from sys.dm_db_index_physical_stats');
    const bar = within(pk).getByRole('progressbar', { name: 'Average fragmentation of PK_Invoice' });
    expect(bar.getAttribute('aria-valuenow')).toBe('42.125');

    const fk = screen.getByRole('article', { name: 'Index IFK_InvoiceCustomerId' });
    expect(fk.textContent).toContain('not unique');
    expect(fk.textContent).toContain('Allocation type: unknown');
    expect(fk.textContent).toContain('Page count: unknown');
    expect(fk.textContent).toContain('Average fragmentationunknown');
    expect(within(fk).queryByRole('progressbar')).toBeNull();
    expect(fk.textContent).not.toContain('Figures from');
  });

  it('a view without keys or indexes says so', async () => {
    renderModal(view);
    await screen.findByRole('dialog', { name: 'Table information' });
    expect(row('Kind')?.textContent).toContain('View');
    expect(row('Rows')?.querySelector('td')?.textContent).toBe('412');
    fireEvent.click(screen.getByRole('tab', { name: 'Keys' }));
    expect(row('Primary key')?.textContent).toContain('None');
    expect(screen.getByText('No key columns.')).toBeTruthy();
    expect(screen.getByText('No foreign keys.')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Indexes' }));
    expect(screen.getByText('No indexes.')).toBeTruthy();
  });

  it('closes by its Close button', async () => {
    const onClose = renderModal(invoice);
    fireEvent.click(await screen.findByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('renders nothing without a table', () => {
    renderModal(null);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
