import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { LOADER_HEADER_SIZE_DEFAULT, loaderHeaderSize, PageLoader } from '#web/ui/page-loader.tsx';
import { renderPage } from '#web/test/render-page.tsx';

describe('the page loader (spec 001 §9: header size 4 by default, 0 to 6 valid)', () => {
  it('takes a header size from 0 to 6, 4 by default, rounding and clamping the rest', () => {
    expect(LOADER_HEADER_SIZE_DEFAULT).toBe(4);
    expect(loaderHeaderSize(undefined)).toBe(4);
    expect(loaderHeaderSize(Number.NaN)).toBe(4);
    for (const size of [0, 1, 2, 3, 4, 5, 6]) expect(loaderHeaderSize(size)).toBe(size);
    expect(loaderHeaderSize(-3)).toBe(0);
    expect(loaderHeaderSize(9)).toBe(6);
    expect(loaderHeaderSize(Number.POSITIVE_INFINITY)).toBe(4);
    expect(loaderHeaderSize(2.6)).toBe(3);
  });

  it('names its status and shows the label at the header size, h4 by default', () => {
    const view = renderPage(<PageLoader label="Loading resume" />);
    expect(screen.getByRole('status', { name: 'Loading resume' })).toBeTruthy();
    const header = view.container.querySelector('[data-header-size]');
    expect(header?.getAttribute('data-header-size')).toBe('4');
    expect(header?.textContent).toBe('Loading resume…');
    expect((header as HTMLElement).style.fontSize).toBe('var(--mantine-h4-font-size)');
    // A wait is no section of the page: no heading joins the outline.
    expect(screen.queryByRole('heading')).toBeNull();
  });

  it('shows no text at size 0, and clamps a size out of range', () => {
    const view = renderPage(
      <>
        <PageLoader label="Signing out" headerSize={0} />
        <PageLoader label="Loading…" headerSize={12} />
      </>,
    );
    expect(screen.getByRole('status', { name: 'Signing out' }).textContent).toBe('');
    const headers = view.container.querySelectorAll('[data-header-size]');
    expect(headers).toHaveLength(1);
    expect(headers[0]?.getAttribute('data-header-size')).toBe('6');
    expect(headers[0]?.textContent).toBe('Loading…');
  });
});
