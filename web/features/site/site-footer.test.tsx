import { afterEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { SiteFooter } from '#web/features/site/site-footer.tsx';
import { clearSiteLinks, setSiteLinks } from '#web/test/site-links.ts';
import { renderPage } from '#web/test/render-page.tsx';

afterEach(() => clearSiteLinks());

describe('the footer', () => {
  it("shows spec 001 §2's social, code and shop links that the operator set, in that order, in a new tab", () => {
    setSiteLinks({
      mastodon: 'https://social.example.org/@dbui',
      sourceCode: 'https://code.example.org/dbui',
      shop: 'https://shop.example.org',
    });
    renderPage(<SiteFooter />);
    const links = within(screen.getByRole('list', { name: 'Elsewhere' })).getAllByRole('link');
    expect(
      links.map((link) => [link.textContent, link.getAttribute('href'), link.getAttribute('target')]),
    ).toEqual([
      ['Mastodon', 'https://social.example.org/@dbui', '_blank'],
      ['Source code', 'https://code.example.org/dbui', '_blank'],
      ['Shop', 'https://shop.example.org', '_blank'],
    ]);
  });

  it('hides each link that is not set, and the list when none is', () => {
    setSiteLinks({ shop: 'https://shop.example.org' });
    const { unmount } = renderPage(<SiteFooter />);
    const links = within(screen.getByRole('list', { name: 'Elsewhere' })).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['Shop']);
    unmount();

    clearSiteLinks();
    renderPage(<SiteFooter />);
    expect(screen.queryByRole('list', { name: 'Elsewhere' })).toBeNull();
    expect(screen.queryByRole('link', { name: /Mastodon|Source code|Shop/ })).toBeNull();
    // No address of the reserved .example domain anywhere in it.
    expect(document.body.innerHTML).not.toMatch(/\.example\b/);
  });
});
