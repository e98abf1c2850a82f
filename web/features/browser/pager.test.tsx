import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Pager, pageCountOf, rowCountText, type PagerProps } from './pager.tsx';
import { renderPage } from '#web/test/render-page.tsx';

function renderPager(props: Partial<PagerProps> = {}) {
  const onPageChange = vi.fn();
  const onSizeChange = vi.fn();
  const all: PagerProps = {
    page: 1,
    size: 20,
    count: 1234,
    countIsExact: true,
    onPageChange,
    onSizeChange,
    ...props,
  };
  const view = renderPage(<Pager {...all} />);
  const rerender = (next: Partial<PagerProps>) => view.rerender(<Pager {...all} {...next} />);
  return { onPageChange, onSizeChange, rerender };
}

const pager = () => screen.getByRole('navigation', { name: 'Pages' });
const button = (name: string) => within(pager()).getByRole<HTMLButtonElement>('button', { name });
const pageInput = () => within(pager()).getByRole<HTMLInputElement>('textbox', { name: 'Page' });

describe('the pager', () => {
  it('counts pages as at least one', () => {
    expect(pageCountOf(0, 20)).toBe(1);
    expect(pageCountOf(20, 20)).toBe(1);
    expect(pageCountOf(21, 20)).toBe(2);
    expect(rowCountText(1, true)).toBe('1 row');
    expect(rowCountText(10_000_000, false)).toBe('about 10,000,000 rows');
  });

  it('shows the page, the page count and the count with thousands separators', () => {
    renderPager({ page: 3 });
    expect(within(pager()).getByText(/Page 3 of 62/).textContent).toBe('Page 3 of 62 · 1,234 rows');
    expect(pageInput().value).toBe('3');
    expect(within(pager()).getByRole<HTMLSelectElement>('combobox', { name: 'Rows per page' }).value).toBe(
      '20',
    );
  });

  it('marks an estimated count', () => {
    renderPager({ count: 10_000_000, countIsExact: false, size: 100 });
    expect(within(pager()).getByText(/Page 1 of/).textContent).toBe(
      'Page 1 of 100,000 · about 10,000,000 rows',
    );
  });

  it('goes to the first, previous, next and last pages, and disables what cannot be', () => {
    const { onPageChange, rerender } = renderPager({ page: 1 });
    expect(button('First page').disabled).toBe(true);
    expect(button('Previous page').disabled).toBe(true);
    fireEvent.click(button('Next page'));
    fireEvent.click(button('Last page'));
    expect(onPageChange.mock.calls).toEqual([[2], [62]]);
    rerender({ page: 62 });
    expect(button('Next page').disabled).toBe(true);
    expect(button('Last page').disabled).toBe(true);
    fireEvent.click(button('Previous page'));
    fireEvent.click(button('First page'));
    expect(onPageChange.mock.calls.slice(2)).toEqual([[61], [1]]);
  });

  it('changes the page size', () => {
    const { onSizeChange } = renderPager();
    fireEvent.change(within(pager()).getByRole('combobox', { name: 'Rows per page' }), {
      target: { value: '60' },
    });
    expect(onSizeChange).toHaveBeenCalledWith(60);
  });

  it('takes a typed page from 1 to the page count, and refuses others with a message', async () => {
    const { onPageChange } = renderPager({ page: 2 });
    fireEvent.change(pageInput(), { target: { value: '63' } });
    fireEvent.submit(pageInput().closest('form') as HTMLFormElement);
    expect((await screen.findByRole('alert')).textContent).toBe('Enter a page from 1 to 62.');
    expect(onPageChange).not.toHaveBeenCalled();

    fireEvent.change(pageInput(), { target: { value: '0' } });
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    fireEvent.submit(pageInput().closest('form') as HTMLFormElement);
    expect((await screen.findByRole('alert')).textContent).toBe('Enter a page from 1 to 62.');
    expect(onPageChange).not.toHaveBeenCalled();

    fireEvent.change(pageInput(), { target: { value: '40' } });
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    fireEvent.submit(pageInput().closest('form') as HTMLFormElement);
    expect(onPageChange).toHaveBeenCalledWith(40);
  });

  it('puts the page shown back in the box when the number typed is not a page, and says the range (issue 32)', async () => {
    const { onPageChange } = renderPager({ page: 3 });
    fireEvent.change(pageInput(), { target: { value: '99999' } });
    fireEvent.submit(pageInput().closest('form') as HTMLFormElement);
    const message = await screen.findByRole('alert');
    expect(message.textContent).toBe('Enter a page from 1 to 62.');
    expect(pageInput().value).toBe('3');
    expect(pageInput().getAttribute('aria-describedby')).toContain(message.id);
    expect(pageInput().getAttribute('aria-invalid')).toBe('true');
    // Leaving the box with such a number does the same.
    fireEvent.change(pageInput(), { target: { value: '1,000' } });
    fireEvent.blur(pageInput());
    expect((await screen.findByRole('alert')).textContent).toBe('Enter a page from 1 to 62.');
    expect(pageInput().value).toBe('3');
    expect(onPageChange).not.toHaveBeenCalled();
  });

  it('waits for the count before offering Next and Last', () => {
    renderPager({ count: null, page: 4 });
    expect(button('Next page').disabled).toBe(true);
    expect(button('Last page').disabled).toBe(true);
    expect(within(pager()).getByText('Page 4')).toBeTruthy();
  });
});
