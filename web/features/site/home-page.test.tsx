import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import { homeNews, homeOpenSource, homePromo, homeSignUp } from '#common/content/home.ts';
import { newsPath } from '#common/content/news.ts';
import { HomePage } from '#web/features/site/home-page.tsx';
import { clearSiteLinks, setSiteLinks } from '#web/test/site-links.ts';
import { renderPage } from '#web/test/render-page.tsx';

/** A stand-in IntersectionObserver whose targets come into view when the test says so. */
class ObserverStandIn {
  static all: ObserverStandIn[] = [];
  targets: Element[] = [];
  constructor(private readonly callback: IntersectionObserverCallback) {
    ObserverStandIn.all.push(this);
  }
  observe(target: Element) {
    this.targets.push(target);
  }
  disconnect() {
    this.targets = [];
  }
  unobserve() {}
  takeRecords() {
    return [];
  }
  static showAll() {
    for (const observer of ObserverStandIn.all) {
      const entries = observer.targets.map((target) => ({ target, isIntersecting: true }));
      if (entries.length > 0) {
        observer.callback(entries as unknown as IntersectionObserverEntry[], observer as never);
      }
    }
  }
}

afterEach(() => {
  clearSiteLinks();
  vi.unstubAllGlobals();
  ObserverStandIn.all = [];
});

describe('HomePage', () => {
  it('links every button and card where spec 001 §2 says', () => {
    setSiteLinks({ sourceCode: 'https://code.example.org/dbui' });
    renderPage(<HomePage />, { at: '/home' });
    const href = (name: string | RegExp) => screen.getByRole('link', { name }).getAttribute('href');
    expect(href('Discover the Solution')).toBe('/services/database');
    expect(href(homeNews.viewAll)).toBe('/news');
    expect(href(homeSignUp.action)).toBe('/account/signup');
    expect(href(homePromo.learnMore)).toBe('/products/dbui');
    expect(href(homePromo.buyNow)).toBe('/products/dbui');
    expect(href(homePromo.requestDemo)).toBe('/contact-us');
    const repository = screen.getByRole('link', { name: /View the repository/ });
    expect(repository.getAttribute('href')).toBe('https://code.example.org/dbui');
    expect(repository.getAttribute('target')).toBe('_blank');

    const services = screen.getByTestId('services-cards');
    expect(within(services).getAllByRole('link')).toHaveLength(6);
    const readMore = within(screen.getByTestId('news-cards')).getAllByRole('link', { name: /^Read More: / });
    expect(readMore).toHaveLength(homeNews.count);
    for (const link of readMore) {
      const title = link.getAttribute('aria-label')?.replace('Read More: ', '') ?? '';
      expect(link.getAttribute('href')).toBe(newsPath({ title }));
    }
  });

  it("keeps the open-source banner without its link while the repository's address is not set", () => {
    renderPage(<HomePage />, { at: '/home' });
    expect(screen.getByRole('heading', { name: homeOpenSource.heading })).toBeTruthy();
    expect(screen.queryByRole('link', { name: /View the repository/ })).toBeNull();
    expect(document.body.innerHTML).not.toMatch(/\.example\b/);
  });

  it('shows the service and news cards when their grid is scrolled into view', () => {
    vi.stubGlobal('IntersectionObserver', ObserverStandIn);
    renderPage(<HomePage />, { at: '/home' });
    const services = screen.getByTestId('services-cards');
    const news = screen.getByTestId('news-cards');
    expect(services.hasAttribute('data-revealed')).toBe(false);
    expect(news.hasAttribute('data-revealed')).toBe(false);
    act(() => ObserverStandIn.showAll());
    expect(services.hasAttribute('data-revealed')).toBe(true);
    expect(news.hasAttribute('data-revealed')).toBe(true);
  });

  it('shows every card at once when less motion is asked for', () => {
    vi.stubGlobal('IntersectionObserver', ObserverStandIn);
    const original = window.matchMedia;
    window.matchMedia = (query: string) =>
      ({ ...original(query), matches: query === '(prefers-reduced-motion: reduce)' }) as MediaQueryList;
    try {
      renderPage(<HomePage />, { at: '/home' });
      expect(screen.getByTestId('services-cards').hasAttribute('data-revealed')).toBe(true);
      expect(screen.getByTestId('news-cards').hasAttribute('data-revealed')).toBe(true);
    } finally {
      window.matchMedia = original;
    }
  });
});
