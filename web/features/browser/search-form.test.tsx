import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { SearchForm } from './search-form.tsx';
import { customerTable, notesTable } from './test-tables.ts';
import type { TableListItem } from '#common/contract/sql.ts';
import { renderPage } from '#web/test/render-page.tsx';

function renderForm(table: TableListItem = customerTable, filter: Record<string, string> = {}) {
  const onSearch = vi.fn();
  renderPage(
    <SearchForm
      table={table}
      filter={filter}
      onSearch={onSearch}
      actions={<button type="button">Export</button>}
    />,
  );
  return onSearch;
}

const form = () => screen.getByRole('form', { name: 'Search' });
const input = (name: string) => within(form()).getByLabelText<HTMLInputElement>(name, { selector: 'input' });
const description = (name: string) => {
  const id = input(name).getAttribute('aria-describedby') ?? '';
  return id
    .split(' ')
    .map((part) => document.getElementById(part)?.textContent ?? '')
    .join(' ');
};

describe('the search form', () => {
  it('has one input per indexed, searchable column with its match rule', () => {
    renderForm();
    expect(description('CustomerId')).toContain('exact');
    expect(description('LastName')).toContain('starts with');
    expect(description('SupportRepId')).toContain('exact');
    expect(description('Since')).toContain('whole day');
    expect(description('Active')).toContain('exact');
    expect(description('Key')).toContain('exact');
    // Not indexed, or indexed but of a type the server cannot match.
    expect(within(form()).queryByLabelText('FirstName')).toBeNull();
    expect(within(form()).queryByLabelText('Email')).toBeNull();
    expect(within(form()).queryByLabelText('Photo')).toBeNull();
    const buttons = within(form())
      .getAllByRole('button')
      .map((b) => b.textContent);
    expect(buttons.filter((name) => ['Clear', 'Export', 'Search'].includes(name ?? ''))).toEqual([
      'Clear',
      'Export',
      'Search',
    ]);
  });

  it('starts from the search in the address', () => {
    renderForm(customerTable, { LastName: 'Gon', Since: '2021-03-04' });
    expect(input('LastName').value).toBe('Gon');
    expect(input('Since').value).toBe('2021-03-04');
  });

  it('sends trimmed terms and leaves empty ones out, on Search or Enter', () => {
    const onSearch = renderForm();
    fireEvent.change(input('LastName'), { target: { value: '  Gon  ' } });
    fireEvent.change(input('CustomerId'), { target: { value: '   ' } });
    fireEvent.click(within(form()).getByRole('button', { name: 'Search' }));
    expect(onSearch).toHaveBeenLastCalledWith({ LastName: 'Gon' });
    expect(input('LastName').value).toBe('Gon');

    fireEvent.change(input('SupportRepId'), { target: { value: '3' } });
    fireEvent.submit(form());
    expect(onSearch).toHaveBeenLastCalledWith({ LastName: 'Gon', SupportRepId: '3' });
  });

  it('Clear empties every input and applies no search', () => {
    const onSearch = renderForm(customerTable, { LastName: 'Gon' });
    fireEvent.click(within(form()).getByRole('button', { name: 'Clear' }));
    expect(onSearch).toHaveBeenLastCalledWith({});
    expect(input('LastName').value).toBe('');
  });

  it('searches a bit column for true, false or any', async () => {
    const onSearch = renderForm(customerTable, { Active: 'true' });
    expect(input('Active').value).toBe('true');
    fireEvent.click(input('Active'));
    fireEvent.click(await screen.findByRole('option', { name: 'false', hidden: true }));
    fireEvent.submit(form());
    expect(onSearch).toHaveBeenLastCalledWith({ Active: 'false' });
    fireEvent.click(input('Active'));
    fireEvent.click(await screen.findByRole('option', { name: 'any', hidden: true }));
    fireEvent.submit(form());
    expect(onSearch).toHaveBeenLastCalledWith({});
  });

  it('says so when no column can be searched, and still offers Export', () => {
    renderForm(notesTable);
    expect(screen.queryByRole('form', { name: 'Search' })).toBeNull();
    expect(screen.getByText(/No column of this table is indexed/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Export' })).toBeTruthy();
  });
});
