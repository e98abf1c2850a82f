import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Filter, FilterPlan } from '#common/contract/filter.ts';
import { testColumn, testTable } from '#web/features/browser/test-tables.ts';
import { fail, fakeApi, ok, type FakeRequest } from '#web/test/fake-api.ts';
import { renderPage } from '#web/test/render-page.tsx';
import FilterBuilder from './filter-builder.tsx';

const invoice = testTable('main', 'Invoice', [
  testColumn(1, 'InvoiceId', {
    type: 'integer',
    typeGroup: 'Number',
    isIndexed: true,
    isPrimaryKey: true,
    isIdentity: true,
    isNullable: false,
  }),
  testColumn(2, 'CustomerId', { type: 'integer', typeGroup: 'Number', isIndexed: true, isForeignKey: true }),
  testColumn(3, 'BillingCountry', { maxLength: 40 }),
  testColumn(4, 'Total', {
    type: 'numeric',
    typeGroup: 'Number',
    precision: 10,
    scale: 2,
    isNullable: false,
  }),
  testColumn(5, 'InvoiceDate', { type: 'date', typeGroup: 'Date' }),
  testColumn(6, 'Paid', { type: 'boolean', typeGroup: 'bit' }),
  testColumn(7, 'Scan', { type: 'blob', typeGroup: 'Binary' }),
]);

const api = fakeApi();
const PLAN = '/api/sql/chinook/main/Invoice/query/plan';

/** A plan that says each condition of the request scans, except those on CustomerId or InvoiceId. */
function planOf(request: FakeRequest): FilterPlan {
  const where = (request.body as { where: Filter }).where;
  const conditions: FilterPlan['conditions'] = [];
  const walk = (filter: Filter, path: string) => {
    if ('column' in filter) {
      const indexed = filter.column === 'CustomerId' || filter.column === 'InvoiceId';
      conditions.push({
        path,
        column: filter.column,
        op: filter.op,
        access: indexed ? 'index' : 'scan',
        index: indexed ? `IX_${filter.column}` : null,
        reason: indexed
          ? `${filter.column} is indexed.`
          : `${filter.column} has no index, so every row is examined.`,
      });
    } else if ('and' in filter) filter.and.forEach((f, i) => walk(f, `${path}.and[${i}]`));
    else if ('or' in filter) filter.or.forEach((f, i) => walk(f, `${path}.or[${i}]`));
    else walk(filter.not, `${path}.not`);
  };
  walk(where, 'where');
  const scans = conditions.some((c) => c.access === 'scan');
  return {
    conditions,
    scans,
    estimatedRows: 19,
    scanBudgetMs: 5000,
    advice: scans
      ? 'An index on BillingCountry would let the database find the rows without reading them all.'
      : null,
  };
}

function renderBuilder(where: Filter | null = null, focus: string | null = null) {
  const onApply = vi.fn();
  const onCancel = vi.fn();
  api.on('POST', PLAN, (request) => ok(planOf(request)));
  renderPage(
    <FilterBuilder
      db="chinook"
      table={invoice}
      sort="-Total"
      where={where}
      focus={focus}
      onApply={onApply}
      onCancel={onCancel}
    />,
  );
  return { onApply, onCancel };
}

const region = () => screen.getByRole('region', { name: 'Filter rows' });
const condition = (n: number) => within(region()).getByRole('group', { name: `Condition ${n}` });
const input = (scope: HTMLElement, label: string) =>
  within(scope).getByLabelText<HTMLInputElement>(label, { selector: 'input' });

/** The list a Mantine select opens (other selects' lists stay in the document, closed): a click toggles it. */
async function listOf(scope: HTMLElement, label: string): Promise<HTMLElement> {
  const field = input(scope, label);
  for (let attempt = 0; attempt < 4; attempt++) {
    const list = document.getElementById(field.getAttribute('aria-controls') ?? '');
    if (list) return list;
    // Opened by the focus the builder gives it before its list was in: leave it and come back.
    if (field.getAttribute('data-expanded') === 'true') fireEvent.blur(field);
    fireEvent.click(field);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the list of ${label} does not open`);
}

/** Picks an option of a Mantine select by its text. */
async function choose(scope: HTMLElement, label: string, option: string) {
  const list = await listOf(scope, label);
  fireEvent.click(within(list).getByRole('option', { name: option, hidden: true }));
  await waitFor(() => expect(input(scope, label).value).toBe(option));
}

describe('the filter builder', () => {
  it('opens on one empty condition, its column focused, the indexed columns listed first', async () => {
    renderBuilder();
    const column = input(condition(1), 'Column');
    await waitFor(() => expect(document.activeElement).toBe(column));
    const list = await listOf(condition(1), 'Column');
    const groups = within(list)
      .getAllByRole('group', { hidden: true })
      .map((g) => g.textContent ?? '')
      .filter((text) => text.startsWith('Indexed columns') || text.startsWith('Other columns'));
    expect(groups[0]).toMatch(/^Indexed columnsInvoiceIdCustomerId$/);
    expect(groups[1]).toMatch(/^Other columnsBillingCountryTotalInvoiceDatePaidScan$/);
    // Nothing is planned before a condition is complete.
    expect(api.requests('POST', PLAN)).toEqual([]);
  });

  it('offers the operators of the column’s type and the input its type needs', async () => {
    renderBuilder();
    await choose(condition(1), 'Column', 'Total');
    const list = await listOf(condition(1), 'Operator');
    const ops = within(list)
      .getAllByRole('option', { hidden: true })
      .map((o) => o.textContent);
    expect(ops).toEqual([
      'equals',
      'does not equal',
      'less than',
      'at most',
      'greater than',
      'at least',
      'between',
      'is one of',
      'is null',
      'is not null',
    ]);
    fireEvent.click(within(list).getByRole('option', { name: 'between', hidden: true }));
    // Two number inputs for a range.
    await waitFor(() => expect(input(condition(1), 'From')).toBeTruthy());
    expect(input(condition(1), 'To')).toBeTruthy();

    await choose(condition(1), 'Operator', 'is null');
    expect(within(condition(1)).queryByLabelText('Value')).toBeNull();

    await choose(condition(1), 'Column', 'Paid');
    await choose(condition(1), 'Operator', 'equals');
    const paid = within(condition(1)).getByRole('switch', { name: /^Value/ });
    fireEvent.click(paid);
    await waitFor(() => expect(within(condition(1)).getByText('true')).toBeTruthy());
    await choose(condition(1), 'Column', 'InvoiceDate');
    expect(input(condition(1), 'Value').getAttribute('placeholder')).toBe('YYYY-MM-DD');
    await choose(condition(1), 'Column', 'Scan');
    expect(input(condition(1), 'Operator').value).toBe('is null');
    await choose(condition(1), 'Column', 'BillingCountry');
    await choose(condition(1), 'Operator', 'is one of');
    expect(input(condition(1), 'Values')).toBeTruthy();
  });

  it('asks for the plan of the complete conditions as the filter is built and shows each badge', async () => {
    const { onApply } = renderBuilder();
    await choose(condition(1), 'Column', 'InvoiceId');
    fireEvent.change(input(condition(1), 'Value'), { target: { value: '7' } });
    fireEvent.click(within(region()).getByRole('button', { name: 'Add condition' }));
    await waitFor(() => expect(document.activeElement).toBe(input(condition(2), 'Column')));
    await choose(condition(2), 'Column', 'BillingCountry');
    await choose(condition(2), 'Operator', 'contains');
    fireEvent.change(input(condition(2), 'Value'), { target: { value: '100%' } });

    expect(await within(condition(1)).findByText('indexed')).toBeTruthy();
    expect(await within(condition(2)).findByText('scans')).toBeTruthy();
    expect(
      within(condition(2)).getByText('BillingCountry has no index, so every row is examined.'),
    ).toBeTruthy();
    // A filter that will scan says so before it runs: the budget and the advice.
    const notice = await within(region()).findByText('This filter scans the whole table');
    const alert = notice.closest('[role="alert"]') ?? notice.parentElement!.parentElement!;
    expect(alert.textContent).toContain('longer than 5 s it is stopped');
    expect(alert.textContent).toContain('about 19 rows');
    expect(alert.textContent).toContain('An index on BillingCountry would let the database');

    const last = api.requests('POST', PLAN).at(-1)!;
    expect(last.body).toEqual({
      where: {
        and: [
          { column: 'InvoiceId', op: 'eq', value: '7' },
          { column: 'BillingCountry', op: 'contains', value: '100%' },
        ],
      },
      orderBy: '-Total',
    });

    fireEvent.click(within(region()).getByRole('button', { name: 'Apply filter' }));
    expect(onApply).toHaveBeenCalledWith(last.body && (last.body as { where: Filter }).where);
  });

  it('chooses a key column’s value among the referenced rows with the row editor’s combobox', async () => {
    api.on(
      'GET',
      '/api/sql/chinook/main/Invoice/foreignkeys',
      ok({
        column: 'CustomerId',
        referencedSchema: 'main',
        referencedTable: 'Customer',
        referencedColumn: 'CustomerId',
        canReadReferencedTable: true,
        options: [
          { key: 7, label: 'Astrid Gruber', isMatch: true },
          { key: 8, label: 'Daan Peeters', isMatch: false },
        ],
        hasMore: false,
        page: 1,
      }),
    );
    const { onApply } = renderBuilder();
    await choose(condition(1), 'Column', 'CustomerId');
    const value = input(condition(1), 'Value');
    fireEvent.focus(value);
    fireEvent.change(value, { target: { value: 'Astr' } });
    fireEvent.click(await screen.findByRole('option', { name: /Astrid Gruber/, hidden: true }));
    await waitFor(() => expect(value.value).toBe('Astrid Gruber'));
    expect(await within(condition(1)).findByText('indexed')).toBeTruthy();
    fireEvent.click(within(region()).getByRole('button', { name: 'Apply filter' }));
    expect(onApply).toHaveBeenCalledWith({ column: 'CustomerId', op: 'eq', value: '7' });
  });

  it('says what is missing on Apply and moves the focus to it; applies nothing', async () => {
    const { onApply } = renderBuilder();
    await choose(condition(1), 'Column', 'Total');
    await choose(condition(1), 'Operator', 'between');
    fireEvent.change(input(condition(1), 'From'), { target: { value: '5' } });
    fireEvent.click(within(region()).getByRole('button', { name: 'Apply filter' }));
    expect(await within(condition(1)).findByText('Enter both ends of the range.')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(input(condition(1), 'From')));
    expect(onApply).not.toHaveBeenCalled();

    fireEvent.change(input(condition(1), 'To'), { target: { value: '10' } });
    fireEvent.click(within(region()).getByRole('button', { name: 'Apply filter' }));
    expect(onApply).toHaveBeenCalledWith({ column: 'Total', op: 'between', values: ['5', '10'] });
  });

  it('groups with OR, nests, removes with the focus on what took the place; Enter applies', async () => {
    const { onApply } = renderBuilder({ column: 'Total', op: 'ge', value: '10' });
    fireEvent.click(within(region()).getByRole('button', { name: 'Add group (OR)' }));
    const group = within(region()).getByRole('group', { name: 'Group 1' });
    await waitFor(() => expect(document.activeElement).toBe(input(condition(2), 'Column')));
    await choose(condition(2), 'Column', 'BillingCountry');
    fireEvent.change(input(condition(2), 'Value'), { target: { value: 'Canada' } });
    fireEvent.click(within(group).getByRole('button', { name: 'Add condition' }));
    await choose(condition(3), 'Column', 'BillingCountry');
    await choose(condition(3), 'Operator', 'is null');

    fireEvent.click(within(region()).getByRole('button', { name: 'Remove condition 1' }));
    await waitFor(() => expect(document.activeElement).toBe(input(condition(1), 'Column')));
    expect(input(condition(1), 'Column').value).toBe('BillingCountry');

    fireEvent.submit(input(condition(1), 'Value').closest('form')!);
    expect(onApply).toHaveBeenCalledWith({
      or: [
        { column: 'BillingCountry', op: 'eq', value: 'Canada' },
        { column: 'BillingCountry', op: 'isNull' },
      ],
    });
  });

  it('opens an applied filter with the chip’s condition focused, and clears or cancels', async () => {
    const where: Filter = {
      and: [
        { column: 'Total', op: 'ge', value: '10' },
        { column: 'BillingCountry', op: 'in', values: ['Canada', 'USA'] },
      ],
    };
    const { onApply, onCancel } = renderBuilder(where, 'c3');
    await waitFor(() => expect(document.activeElement).toBe(input(condition(2), 'Column')));
    expect(input(condition(1), 'Value').value).toBe('10');
    expect(within(condition(2)).getByText('Canada')).toBeTruthy();
    fireEvent.click(within(region()).getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalled();
    fireEvent.click(within(region()).getByRole('button', { name: 'Clear filter' }));
    expect(onApply).toHaveBeenCalledWith(null);
  });

  it('shows the server’s refusal of a value as the plan’s answer', async () => {
    renderBuilder();
    api.on(
      'POST',
      PLAN,
      fail(400, 'where (BillingCountry eq): the value is longer than BillingCountry holds (40 characters).'),
    );
    await choose(condition(1), 'Column', 'BillingCountry');
    fireEvent.change(input(condition(1), 'Value'), { target: { value: 'x'.repeat(41) } });
    expect(await within(region()).findByText(/longer than BillingCountry holds/)).toBeTruthy();
  });
});
