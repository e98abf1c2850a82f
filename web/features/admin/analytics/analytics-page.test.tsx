import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import { ANALYTICS_OTHER_PAGES, type AnalyticsReport } from '#common/contract/analytics.ts';
import { AnalyticsPage } from '#web/features/admin/analytics/analytics-page.tsx';
import { analyticsDaysOf } from '#web/features/admin/analytics/analytics-address.ts';
import { dayLabel, summaryOf } from '#web/features/admin/analytics/analytics-summary.ts';
import { renderPage } from '#web/test/render-page.tsx';
import { fail, fakeApi, ok } from '#web/test/fake-api.ts';

const daysOf = (count: number, views: Record<number, number> = {}) =>
  Array.from({ length: count }, (_, i) => ({
    day: new Date(Date.UTC(2026, 10, 24 - (count - 1 - i))).toISOString().slice(0, 10),
    views: views[i] ?? 0,
  }));

const report: AnalyticsReport = {
  pageViewsByDay: daysOf(30, { 27: 4, 29: 6 }),
  pageViewsByPage: [
    { path: '/news', views: 6 },
    { path: '/services/sql-server-performance', views: 3 },
    { path: '/', views: 1 },
  ],
  consent: { accepted: 3, rejected: 1 },
};
const empty: AnalyticsReport = {
  pageViewsByDay: daysOf(7),
  pageViewsByPage: [],
  consent: { accepted: 0, rejected: 0 },
};

const api = fakeApi();
const fetchMock = api.fetch;

const warn = console.warn.bind(console);
beforeEach(() => {
  // jsdom lays nothing out, so Recharts' responsive container measures 0 × 0 and says so on every render.
  vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    if (String(args[0]).startsWith('The width(0) and height(0) of chart')) return;
    warn(...args);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

function Address() {
  const location = useLocation();
  return <output data-testid="address">{`${location.pathname}${location.search}`}</output>;
}
const address = () => screen.getByTestId('address').textContent;
const renderAnalytics = (at = '/admin/analytics') =>
  renderPage(
    <>
      <AnalyticsPage />
      <Address />
    </>,
    { at },
  );

describe('the analytics page', () => {
  it('shows the last 30 days: views per day and page, and consent with its numbers in words', async () => {
    api.on('GET', '/api/admin/analytics', ok(report));
    renderAnalytics();
    expect(await screen.findByText(/10 page views in the last 30 days \(UTC\)\./)).toBeTruthy();
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/admin/analytics?days=30');
    expect(screen.getByRole('heading', { level: 1, name: 'Analytics' })).toBeTruthy();
    expect(screen.getByText(/The busiest day was Nov 24, with 6 views\./)).toBeTruthy();
    expect(
      screen.getByRole('img', { name: /Bar chart of page views on each of the last 30 days/ }),
    ).toBeTruthy();

    const pages = screen.getByRole('region', { name: 'Most viewed pages' });
    const rows = within(pages).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      '/news660%',
      '/services/sql-server-performance330%',
      '/110%',
    ]);

    const consent = screen.getByRole('region', { name: 'Consent choices' });
    expect(within(consent).getByText('4 visitors answered the cookie banner in this period.')).toBeTruthy();
    const items = within(consent)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items).toEqual(['Accepted: 3 (75%)', 'Rejected: 1 (25%)']);
  });

  it('names the pages a day counted together beyond its limit of new pages, and says how visitors count', async () => {
    api.on(
      'GET',
      '/api/admin/analytics',
      ok({
        ...report,
        pageViewsByPage: [...report.pageViewsByPage, { path: ANALYTICS_OTHER_PAGES, views: 2 }],
      }),
    );
    renderAnalytics();
    const pages = await screen.findByRole('region', { name: 'Most viewed pages' });
    const last = within(pages).getAllByRole('row').at(-1);
    expect(last?.textContent).toBe('Other pages (over the day’s limit of new pages)220%');
    expect(screen.getByText(/each visitor once per page and choice a day/)).toBeTruthy();
  });

  it('switches the period, keeping it in the address', async () => {
    api.on('GET', '/api/admin/analytics', ok(report));
    api.on('GET', '/api/admin/analytics?days=7', ok({ ...report, pageViewsByDay: daysOf(7, { 6: 2 }) }));
    renderAnalytics();
    await screen.findByText(/in the last 30 days/);
    fireEvent.click(screen.getByRole('radio', { name: '7 days' }));
    expect(await screen.findByText(/2 page views in the last 7 days/)).toBeTruthy();
    expect(fetchMock.mock.calls.at(-1)?.[0]).toBe('/api/admin/analytics?days=7');
    expect(address()).toBe('/admin/analytics?days=7');
    fireEvent.click(screen.getByRole('radio', { name: '30 days' }));
    await screen.findByText(/in the last 30 days/);
    expect(address()).toBe('/admin/analytics');
  });

  it('opens on the period of the address', async () => {
    api.on('GET', '/api/admin/analytics', ok({ ...report, pageViewsByDay: daysOf(90) }));
    renderAnalytics('/admin/analytics?days=90');
    await waitFor(() => expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/admin/analytics?days=90'));
    expect((screen.getByRole('radio', { name: '90 days' }) as HTMLInputElement).checked).toBe(true);
  });

  it('says honestly when nothing was recorded', async () => {
    api.on('GET', '/api/admin/analytics', ok(empty));
    renderAnalytics('/admin/analytics?days=7');
    expect(await screen.findByText('Nothing recorded in the last 7 days')).toBeTruthy();
    expect(screen.getByText(/counted only for visitors who accept analytics/)).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('shows each section’s own empty text when only consent was recorded', async () => {
    api.on('GET', '/api/admin/analytics', ok({ ...empty, consent: { accepted: 0, rejected: 2 } }));
    renderAnalytics('/admin/analytics?days=7');
    expect(await screen.findAllByText('No page views were recorded in the last 7 days.')).toHaveLength(2);
    const consent = screen.getByRole('region', { name: 'Consent choices' });
    expect(
      within(consent)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Accepted: 0 (0%)', 'Rejected: 2 (100%)']);
  });

  it("shows the server's message when the report fails, and retries", async () => {
    api.once('GET', '/api/admin/analytics', fail(503, 'The app store does not answer.'));
    renderAnalytics();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Failed to load the analytics.')).toBeTruthy();
    expect(within(alert).getByText('The app store does not answer.')).toBeTruthy();
    api.on('GET', '/api/admin/analytics', ok(report));
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText(/10 page views/)).toBeTruthy();
  });
});

describe('the analytics helpers', () => {
  it('reads only the offered periods from the address', () => {
    expect(analyticsDaysOf(new URLSearchParams('days=7'))).toBe(7);
    expect(analyticsDaysOf(new URLSearchParams('days=90'))).toBe(90);
    expect(analyticsDaysOf(new URLSearchParams('days=365'))).toBe(30);
    expect(analyticsDaysOf(new URLSearchParams('days=x'))).toBe(30);
    expect(analyticsDaysOf(new URLSearchParams())).toBe(30);
  });

  it('labels UTC days and sums a report', () => {
    expect(dayLabel('2026-01-05')).toBe('Jan 5');
    const summary = summaryOf(report);
    expect(summary).toMatchObject({
      totalViews: 10,
      busiest: { day: '2026-11-24', views: 6 },
      consentTotal: 4,
      acceptedPercent: 75,
      rejectedPercent: 25,
      topViews: 6,
      empty: false,
    });
    expect(summaryOf(empty)).toMatchObject({ totalViews: 0, busiest: null, empty: true, rejectedPercent: 0 });
  });
});
