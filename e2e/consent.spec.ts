import { expect, test, type Browser, type Page } from '@playwright/test';
import { COOKIE_CONSENT_KEY } from '#common/limits.ts';
import { consentTexts } from '#web/features/consent/consent-texts.ts';
import type { Verification } from '#common/contract/account.ts';
import { analyticsTexts } from '#web/features/admin/analytics/analytics-texts.ts';
import { lookAtSoftly, openAdmin, region, withClient } from './support/admin.ts';
import { startAppServer, type AppServer } from './support/app-server.ts';
import { lookAt } from './support/look.ts';
import { viewports } from './screenshots.ts';
import { signInThroughApi } from './support/sign-in.ts';

/*
 * Cookie consent and first-party analytics in a real browser (spec 001 §2, §4, §9; issue 15): the banner on a first
 * visit, a rejection that sends only itself and no page views and is asked again 30 days later (the page's clock
 * moved on), then an acceptance that sends the consent event and a 'PageView' for each page after it, and last the
 * footer's Cookie settings, which shows the banner again: changing to Reject sends the rejection and stops the page
 * views at once. What the browser sends is read from its requests, and what the server counted from the
 * administrator's analytics (each visitor once per page and choice a day).
 */

interface SentEvent {
  name: string;
  path: string;
  value?: string;
}

interface AnalyticsSummary {
  pageViewsByPage: { path: string; views: number }[];
  consent: { accepted: number; rejected: number };
}

const DAY = 24 * 60 * 60 * 1000;

let server: AppServer;
let page: Page;
/** The administrator's sign-in, made while the first steps run (the report and the analytics page need it). */
let admin: Promise<Verification>;
/** When the rejection was made, by the page's clock. */
let rejectedAt = 0;
/** Every event the page posted to the analytics endpoint, in order. */
const sent: SentEvent[] = [];

test.describe.configure({ mode: 'serial', timeout: 180_000 });

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  server = await startAppServer('consent');
  admin = withClient(server, (call) => signInThroughApi(call, server, server.admin));
  admin.catch(() => undefined); // awaited, and its failure reported, where the report is read
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  page = await context.newPage();
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/analytics/events') {
      const body = request.postDataJSON() as { events: SentEvent[] };
      sent.push(...body.events);
    }
  });
});

test.afterAll(async () => {
  await page?.context().close();
  await server?.stop();
});

const banner = () => page.getByRole('region', { name: consentTexts.title });
const mainMenu = () => page.getByRole('banner').getByRole('navigation', { name: 'Main' });

async function analytics(): Promise<AnalyticsSummary> {
  return withClient(server, async (call) => {
    const answer = await call<AnalyticsSummary>('GET', '/api/admin/analytics?days=30', {
      token: (await admin).token,
    });
    expect(answer.status, answer.message ?? '').toBe(200);
    return answer.data;
  });
}

test('a first visit shows the banner, which covers nothing for good', async () => {
  await page.clock.setSystemTime(new Date('2026-05-04T10:00:00Z'));
  await page.goto(`${server.origin}/home`);
  await expect(banner()).toBeVisible();
  await expect(banner().getByText(consentTexts.body)).toBeVisible();
  await expect(banner().getByRole('link', { name: consentTexts.privacyLink })).toHaveAttribute(
    'href',
    '/privacy-policy',
  );
  // Keyboard reachable: the answers are ordinary tab stops.
  await banner().getByRole('button', { name: 'Reject' }).focus();
  await page.keyboard.press('Tab');
  await expect(banner().getByRole('button', { name: 'Accept' })).toBeFocused();

  // On a phone the page's end scrolls above the banner: the footer's last line stays reachable.
  // Measured until the layout has followed the new width (the room kept below the page follows the banner's height
  // once the page has laid out again; measured at once, a CI run caught the footer's end 85 px under it).
  await page.setViewportSize({ width: 375, height: 812 });
  await expect
    .poll(async () => {
      await page.evaluate(() => window.scrollTo({ top: document.body.scrollHeight, behavior: 'instant' }));
      const bannerTop = (await banner().boundingBox())?.y ?? 0;
      const footer = await page.getByRole('contentinfo').boundingBox();
      return (footer?.y ?? 0) + (footer?.height ?? 0) - bannerTop;
    }, 'how far the footer ends below the banner’s top on a phone')
    .toBeLessThanOrEqual(1);
  await page.setViewportSize({ width: 1366, height: 900 });

  await lookAt(page, 'consent-banner');
  // The screen as a person sees it (a full-page picture draws fixed parts mid-page).
  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    await page.screenshot({ path: `test-results/screenshots/consent-banner-${size}-screen.png` });
  }
  await page.setViewportSize(viewports.desktop);
  expect(sent).toEqual([]);
});

test('Reject hides the banner, sends only the rejection and no page views', async () => {
  await banner().getByRole('button', { name: 'Reject' }).click();
  await expect(banner()).toBeHidden();
  await expect.poll(() => sent).toEqual([{ name: 'consent', path: '/home', value: 'rejected' }]);
  const stored = await page.evaluate((key) => localStorage.getItem(key), COOKIE_CONSENT_KEY);
  // The page's clock runs on from the moment set, so the choice is dated within the minute.
  const choice = JSON.parse(stored ?? 'null') as { value: string; at: string };
  rejectedAt = Date.parse(choice.at);
  expect(choice).toEqual({
    value: 'rejected',
    at: expect.stringMatching(/^2026-05-04T10:0\d:\d\d\.\d{3}Z$/),
  });

  await mainMenu().getByRole('link', { name: 'About Us' }).click();
  await expect(page).toHaveURL(/\/about-us$/);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(banner()).toBeHidden();
  expect(sent).toHaveLength(1);
  // Our consent sets no cookie: the only one is the server's anti-forgery token.
  expect((await page.context().cookies()).map((cookie) => cookie.name)).toEqual(['XSRF-TOKEN']);

  const summary = await analytics();
  expect(summary.consent).toEqual({ accepted: 0, rejected: 1 });
  expect(summary.pageViewsByPage).toEqual([]);
});

test('30 days after a rejection the banner asks again', async () => {
  await page.clock.setSystemTime(new Date(rejectedAt + 30 * DAY - 60_000));
  await page.goto(`${server.origin}/home`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(banner()).toBeHidden();

  await page.clock.setSystemTime(new Date(rejectedAt + 30 * DAY));
  await page.reload();
  await expect(banner()).toBeVisible();
});

test('Accept sends the consent event and a PageView for the page and each navigation', async () => {
  await banner().getByRole('button', { name: 'Accept' }).click();
  await expect(banner()).toBeHidden();
  await expect
    .poll(() => sent.slice(1))
    .toEqual([
      { name: 'consent', path: '/home', value: 'accepted' },
      { name: 'PageView', path: '/home' },
    ]);
  await mainMenu().getByRole('link', { name: 'About Us' }).click();
  await expect(page).toHaveURL(/\/about-us$/);
  await expect.poll(() => sent.slice(3)).toEqual([{ name: 'PageView', path: '/about-us' }]);

  // A later visit keeps the acceptance and reports its first page, with no second consent event.
  await page.clock.setSystemTime(new Date(rejectedAt + 400 * DAY));
  await page.goto(`${server.origin}/services/database`);
  await expect(banner()).toBeHidden();
  await expect.poll(() => sent.slice(4)).toEqual([{ name: 'PageView', path: '/services/database' }]);

  const summary = await analytics();
  expect(summary.consent).toEqual({ accepted: 1, rejected: 1 });
  expect(summary.pageViewsByPage).toEqual(
    expect.arrayContaining([
      { path: '/home', views: 1 },
      { path: '/about-us', views: 1 },
      { path: '/services/database', views: 1 },
    ]),
  );
});

test("the footer's Cookie settings shows the banner again; Reject there stops page views at once", async () => {
  const settings = page.getByRole('contentinfo').getByRole('button', { name: consentTexts.settings });
  await settings.click();
  await expect(banner()).toBeVisible();
  await expect(banner().getByText(consentTexts.current.accepted)).toBeVisible();
  // The focus moves into the banner, drawn at the bottom of the screen.
  await expect(banner().getByText(consentTexts.title)).toBeFocused();

  await lookAt(page, 'consent-settings');
  // The screen as a person sees it, scrolled to the footer with the banner open.
  for (const [size, viewport] of Object.entries(viewports)) {
    await page.setViewportSize(viewport);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.evaluate(() => window.scrollTo({ top: document.body.scrollHeight, behavior: 'instant' }));
      await page.waitForTimeout(250);
      await page.screenshot({
        path: `test-results/screenshots/consent-settings-${size}-${scheme}-screen.png`,
      });
    }
  }
  await page.emulateMedia({ colorScheme: null });
  await page.setViewportSize(viewports.desktop);

  await banner().getByRole('button', { name: 'Reject' }).click();
  await expect(banner()).toBeHidden();
  await expect(settings).toBeFocused();
  await expect
    .poll(() => sent.slice(5))
    .toEqual([{ name: 'consent', path: '/services/database', value: 'rejected' }]);
  const stored = await page.evaluate((key) => localStorage.getItem(key), COOKIE_CONSENT_KEY);
  expect(JSON.parse(stored ?? 'null')).toMatchObject({ value: 'rejected' });

  // No page view after the change, in this page or the next visit.
  await mainMenu().getByRole('link', { name: 'About Us' }).click();
  await expect(page).toHaveURL(/\/about-us$/);
  await page.goto(`${server.origin}/news`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(banner()).toBeHidden();
  await page.waitForTimeout(500);
  expect(sent).toHaveLength(6);

  // The server counts each choice once a visitor a day (decision 0043): this rejection is the visitor's second of
  // the server's day, unless that day ended since the first.
  const summary = await analytics();
  expect(summary.consent.accepted).toBe(1);
  expect([1, 2]).toContain(summary.consent.rejected);
});

test('the administrators’ analytics page shows the pages counted and says how visitors count', async ({
  browser,
}: {
  browser: Browser;
}) => {
  const context = await browser.newContext({ viewport: viewports.desktop });
  const adminPage = await context.newPage();
  try {
    // The administrator has answered the banner (rejected: their own visit sends nothing).
    await adminPage.addInitScript(({ key, value }) => localStorage.setItem(key, value), {
      key: COOKIE_CONSENT_KEY,
      value: JSON.stringify({ value: 'rejected', at: new Date().toISOString() }),
    });
    await openAdmin(adminPage, server, await admin, '/admin/analytics', analyticsTexts.title);
    const pages = region(adminPage, analyticsTexts.viewsByPage);
    for (const path of ['/home', '/about-us', '/services/database'])
      await expect(pages.getByRole('row', { name: new RegExp(`^${path}\\s+1\\s`) })).toBeVisible();
    await expect(adminPage.getByText(analyticsTexts.privacy)).toBeVisible();
    await lookAtSoftly(adminPage, 'admin-analytics');
  } finally {
    await context.close();
  }
});
