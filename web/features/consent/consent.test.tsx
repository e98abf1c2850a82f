import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Link, Navigate, Route, Routes } from 'react-router';
import { COOKIE_CONSENT_KEY } from '#common/limits.ts';
import { ConsentBanner } from '#web/features/consent/consent-banner.tsx';
import {
  ConsentStoreContext,
  createConsentStore,
  type ConsentEvent,
  type ConsentStore,
} from '#web/features/consent/consent-store.ts';
import { consentTexts } from '#web/features/consent/consent-texts.ts';
import { PAGE_VIEW_SETTLE_MS, usePageViews } from '#web/features/consent/use-page-views.ts';
import { SiteFooter } from '#web/features/site/site-footer.tsx';
import { renderPage } from '#web/test/render-page.tsx';

const DAY = 24 * 60 * 60 * 1000;
const start = new Date('2026-03-01T09:00:00.000Z');

/** A clock the test moves, and a sender that records each call's events. */
function setUp(options: { send?: (events: ConsentEvent[]) => Promise<unknown> } = {}) {
  let now = start;
  const calls: ConsentEvent[][] = [];
  const send =
    options.send ??
    ((events: ConsentEvent[]) => {
      calls.push(events);
      return Promise.resolve(null);
    });
  return {
    calls,
    advance: (ms: number) => {
      now = new Date(now.getTime() + ms);
    },
    /** A new page load: a store that reads the browser's storage again at the clock's time. */
    load: () => createConsentStore({ storage: localStorage, now: () => now, send }),
  };
}

/** The site layout's part: the banner and the page-view reporter, with two pages to move between. */
function Layout() {
  usePageViews();
  return (
    <>
      <ConsentBanner />
      <nav>
        <Link to="/home">Home</Link>
        <Link to="/about-us">About</Link>
      </nav>
      <Routes>
        <Route path="/" element={<Navigate to="/home" replace />} />
        <Route path="*" element={<p>page</p>} />
      </Routes>
      <SiteFooter />
    </>
  );
}

function renderSite(store: ConsentStore, path = '/home') {
  return renderPage(
    <ConsentStoreContext value={store}>
      <Layout />
    </ConsentStoreContext>,
    { at: path },
  );
}

const banner = () => screen.queryByRole('region', { name: consentTexts.title });
/** Waits until the sender has had `count` calls (page views go out once a page has stayed 100 ms). */
const sentCalls = (calls: ConsentEvent[][], count: number) =>
  waitFor(() => {
    expect(calls).toHaveLength(count);
  });

const stored = () => JSON.parse(localStorage.getItem(COOKIE_CONSENT_KEY) ?? 'null') as unknown;

afterEach(() => {
  localStorage.clear();
});

describe('the consent banner', () => {
  it('shows on a first visit with the privacy policy link and the two answers', () => {
    const site = setUp();
    renderSite(site.load());
    const region = banner();
    expect(region).not.toBeNull();
    expect(region?.textContent).toContain(consentTexts.body);
    expect(screen.getByRole('link', { name: consentTexts.privacyLink }).getAttribute('href')).toBe(
      '/privacy-policy',
    );
    expect(screen.getByRole('button', { name: 'Accept' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reject' })).toBeTruthy();
    // Nothing is sent before a choice.
    expect(site.calls).toEqual([]);
  });

  it('remembers a rejection for 30 days, sends only the rejection, then asks again', async () => {
    const site = setUp();
    const first = renderSite(site.load());
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }));
    expect(banner()).toBeNull();
    expect(stored()).toEqual({ value: 'rejected', at: start.toISOString() });
    expect(site.calls).toEqual([[{ name: 'consent', path: '/home', value: 'rejected' }]]);
    // No page views after a rejection.
    fireEvent.click(screen.getByRole('link', { name: 'About' }));
    await new Promise((resolve) => setTimeout(resolve, 3 * PAGE_VIEW_SETTLE_MS));
    expect(site.calls).toHaveLength(1);
    expect(document.cookie).toBe('');
    first.unmount();

    site.advance(30 * DAY - 60_000);
    const again = renderSite(site.load());
    expect(banner()).toBeNull();
    again.unmount();

    site.advance(60_000);
    renderSite(site.load());
    expect(banner()).not.toBeNull();
    expect(site.calls).toHaveLength(1);
  });

  it('keeps an acceptance, and reports the page on screen and each navigation after it', async () => {
    const site = setUp();
    const first = renderSite(site.load(), '/services/database');
    fireEvent.click(screen.getByRole('button', { name: 'Accept' }));
    expect(banner()).toBeNull();
    expect(stored()).toEqual({ value: 'accepted', at: start.toISOString() });
    await sentCalls(site.calls, 2);
    expect(site.calls).toEqual([
      [{ name: 'consent', path: '/services/database', value: 'accepted' }],
      [{ name: 'PageView', path: '/services/database' }],
    ]);
    fireEvent.click(screen.getByRole('link', { name: 'About' }));
    await sentCalls(site.calls, 3);
    fireEvent.click(screen.getByRole('link', { name: 'Home' }));
    await sentCalls(site.calls, 4);
    expect(site.calls.slice(2)).toEqual([
      [{ name: 'PageView', path: '/about-us' }],
      [{ name: 'PageView', path: '/home' }],
    ]);
    first.unmount();

    // A year later the banner stays away, the first page is reported, and no second consent event is sent.
    site.advance(365 * DAY);
    const later = renderSite(site.load(), '/news');
    expect(banner()).toBeNull();
    await sentCalls(site.calls, 5);
    expect(site.calls.slice(4)).toEqual([[{ name: 'PageView', path: '/news' }]]);
    later.unmount();

    // A page that sends the visitor straight on (the empty path to /home) is no view of its own.
    renderSite(site.load(), '/');
    await sentCalls(site.calls, 6);
    await new Promise((resolve) => setTimeout(resolve, 3 * PAGE_VIEW_SETTLE_MS));
    expect(site.calls.slice(5)).toEqual([[{ name: 'PageView', path: '/home' }]]);
  });

  it('never breaks the page when sending fails or the storage refuses', async () => {
    const failing = vi.fn(() => Promise.reject(new Error('offline')));
    const throwing = vi.fn(() => {
      throw new Error('broken');
    });
    for (const send of [failing, throwing]) {
      const store = createConsentStore({
        storage: {
          getItem: () => null,
          setItem: () => {
            throw new Error('QuotaExceededError');
          },
        },
        send,
      });
      const view = renderSite(store);
      fireEvent.click(screen.getByRole('button', { name: 'Accept' }));
      // The choice holds for this page even when it could not be stored.
      expect(banner()).toBeNull();
      await waitFor(() => {
        expect(send).toHaveBeenCalledTimes(2);
      });
      fireEvent.click(screen.getByRole('link', { name: 'About' }));
      await waitFor(() => {
        expect(send).toHaveBeenCalledTimes(3);
      });
      view.unmount();
    }
  });

  it('follows a choice made in another tab', async () => {
    const site = setUp();
    renderSite(site.load());
    expect(banner()).not.toBeNull();
    act(() => {
      localStorage.setItem(
        COOKIE_CONSENT_KEY,
        JSON.stringify({ value: 'accepted', at: start.toISOString() }),
      );
      window.dispatchEvent(new StorageEvent('storage', { key: COOKIE_CONSENT_KEY }));
    });
    expect(banner()).toBeNull();
    // The other tab sent the consent event; this one reports the page it shows.
    await sentCalls(site.calls, 1);
    expect(site.calls).toEqual([[{ name: 'PageView', path: '/home' }]]);
  });
});

describe('Cookie settings in the footer', () => {
  const settings = () => screen.getByRole('button', { name: consentTexts.settings });

  it('shows the banner again with the choice in force; Reject stops page views at once and sends the rejection', async () => {
    const site = setUp();
    renderSite(site.load());
    fireEvent.click(screen.getByRole('button', { name: 'Accept' }));
    await sentCalls(site.calls, 2);
    expect(banner()).toBeNull();

    settings().focus();
    fireEvent.click(settings());
    expect(banner()).not.toBeNull();
    expect(banner()?.textContent).toContain(consentTexts.current.accepted);
    // The focus moves into the banner, which is drawn at the bottom of the screen.
    expect(document.activeElement?.textContent).toBe(consentTexts.title);

    // A page opened just before the change is not reported: the rejection holds at once.
    fireEvent.click(screen.getByRole('link', { name: 'About' }));
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }));
    expect(banner()).toBeNull();
    expect(document.activeElement).toBe(settings());
    expect(stored()).toEqual({ value: 'rejected', at: start.toISOString() });
    expect(site.calls.slice(2)).toEqual([[{ name: 'consent', path: '/about-us', value: 'rejected' }]]);
    fireEvent.click(screen.getByRole('link', { name: 'Home' }));
    await new Promise((resolve) => setTimeout(resolve, 3 * PAGE_VIEW_SETTLE_MS));
    expect(site.calls).toHaveLength(3);
  });

  it('changes a rejection to an acceptance, which reports the page on screen', async () => {
    const site = setUp();
    renderSite(site.load(), '/news');
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }));
    fireEvent.click(settings());
    expect(banner()?.textContent).toContain(consentTexts.current.rejected);
    fireEvent.click(screen.getByRole('button', { name: 'Accept' }));
    expect(banner()).toBeNull();
    await sentCalls(site.calls, 3);
    expect(site.calls).toEqual([
      [{ name: 'consent', path: '/news', value: 'rejected' }],
      [{ name: 'consent', path: '/news', value: 'accepted' }],
      [{ name: 'PageView', path: '/news' }],
    ]);
  });

  it('keeps the choice with Escape or the same answer, sending nothing', async () => {
    const site = setUp();
    renderSite(site.load());
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }));
    expect(site.calls).toHaveLength(1);

    fireEvent.click(settings());
    fireEvent.keyDown(screen.getByText(consentTexts.title), { key: 'Escape' });
    expect(banner()).toBeNull();

    fireEvent.click(settings());
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }));
    expect(banner()).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 3 * PAGE_VIEW_SETTLE_MS));
    expect(site.calls).toHaveLength(1);
    expect(stored()).toEqual({ value: 'rejected', at: start.toISOString() });
  });

  it('on a first visit simply leaves the banner up', () => {
    const site = setUp();
    renderSite(site.load());
    fireEvent.click(settings());
    expect(banner()).not.toBeNull();
    expect(banner()?.textContent).not.toContain(consentTexts.current.accepted);
    expect(banner()?.textContent).not.toContain(consentTexts.current.rejected);
  });
});
