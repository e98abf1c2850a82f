import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { shellMessages } from '#common/messages.ts';
import { about } from '#common/content/about.ts';
import { homeOpenSource } from '#common/content/home.ts';
import { privacyPolicy, termsOfUse } from '#common/content/legal.ts';
import { serviceDetails } from '#common/content/services.ts';
import { startAppServer, type AppServer } from './support/app-server.ts';
import { lookAt } from './support/look.ts';

// The public content pages (spec 001 §2): services, products, about us, privacy policy, terms of use. Every route
// renders, unknown ids fall back to the first, and each page is looked at once (axe, phone and desktop, light and dark).

let server: AppServer;
let context: BrowserContext;
let page: Page;

test.describe.configure({ mode: 'serial', timeout: 180_000 });

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  server = await startAppServer('site-content');
  context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  page = await context.newPage();
  // The cookie banner (its own journey: e2e/consent.spec.ts) is answered once, so it does not cover the pages in
  // the pictures; a build without the banner yet simply has nothing to answer.
  await page.goto(`${server.origin}/about-us`);
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
  const reject = page.getByRole('button', { name: 'Reject' });
  const shown = await reject.waitFor({ state: 'visible', timeout: 3_000 }).then(
    () => true,
    () => false,
  );
  if (shown) {
    await reject.click();
    await expect(reject).toBeHidden();
  }
});

test.afterAll(async () => {
  await context?.close();
  await server?.stop();
});

const open = (path: string) => page.goto(`${server.origin}${path}`);
/** Spec: responsive from 360 px. The page at 360 px wide scrolls only down, never sideways. */
async function fits360(): Promise<void> {
  const original = page.viewportSize();
  await page.setViewportSize({ width: 360, height: 740 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  if (original) await page.setViewportSize(original);
}

const pageTitle = () => page.getByRole('main').getByRole('heading', { level: 1 });

test('without the outside addresses set, the footer and the home page show none of those links', async () => {
  // This journey's server is given no MASTODON_URL, SOURCE_CODE_URL or SHOP_URL (support/app-server.ts).
  await open('/home');
  await expect(pageTitle()).toBeVisible();
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByText('© 2025')).toBeVisible();
  await expect(footer.getByRole('list', { name: 'Elsewhere' })).toHaveCount(0);
  await expect(page.locator('a[href^="http"]')).toHaveCount(0);
  // The open-source banner stands without its link.
  await expect(page.getByRole('heading', { name: homeOpenSource.heading })).toBeVisible();
  await expect(page.getByRole('link', { name: /View the repository/ })).toHaveCount(0);
  expect(await page.content()).not.toMatch(/\.example\b/);
});

test('every service has its page, and /services or an unknown service shows the first', async () => {
  const offers = () => page.getByRole('region', { name: 'What we offer' }).getByRole('heading', { level: 3 });
  const first = serviceDetails[0]!;
  await open(`/services/${first.id}`);
  await expect(pageTitle()).toHaveText(first.heading);
  await expect(offers()).toHaveCount(6);
  await expect(page.getByRole('main').getByRole('img', { name: first.image.alt })).toBeVisible();
  await lookAt(page, 'service-database');
  await fits360();

  // The other services, each reached by its link under Other services.
  for (const service of serviceDetails.slice(1)) {
    await page
      .getByRole('navigation', { name: 'Other services' })
      .getByRole('link', { name: service.name })
      .click();
    await expect(page).toHaveURL(new RegExp(`/services/${service.id}$`));
    await expect(pageTitle()).toHaveText(service.heading);
    await expect(offers()).toHaveCount(6);
    // Spec 001 §3: each service has its picture, named by its alt text.
    await expect(page.getByRole('main').getByRole('img', { name: service.image.alt })).toBeVisible();
    if (service.id === 'web-mobile') await lookAt(page, 'service-web-mobile');
  }

  for (const path of ['/services', '/services/no-such-service']) {
    await open(path);
    await expect(pageTitle()).toHaveText(first.heading);
  }
});

test('products show DBUI as coming soon, whatever the id', async () => {
  for (const path of ['/products/dbui', '/products', '/products/no-such-product']) {
    await open(path);
    await expect(pageTitle()).toHaveText(shellMessages.productsComingSoon);
  }
  await open('/products/dbui');
  await expect(page.getByRole('link', { name: 'Request a demo' })).toHaveAttribute('href', '/contact-us');
  await lookAt(page, 'product-dbui');
  await fits360();
});

test('about us has a Resume button that opens the resume', async () => {
  await open('/about-us');
  await expect(pageTitle()).toHaveText(about.heading);
  await lookAt(page, 'about-us');
  await fits360();
  await page.getByRole('link', { name: 'Resume' }).click();
  await expect(page).toHaveURL(/\/resume$/);
});

test('the privacy policy and the terms of use, effective January 1st 2024', async () => {
  for (const [path, document, name] of [
    ['/privacy-policy', privacyPolicy, 'privacy-policy'],
    ['/terms-of-use', termsOfUse, 'terms-of-use'],
  ] as const) {
    await open(path);
    await expect(pageTitle()).toHaveText(document.title);
    await expect(page.getByText('Effective January 1st 2024')).toBeVisible();
    await expect(page.getByRole('main')).toContainText('at least 30 days');
    if (document === privacyPolicy) await expect(page.getByRole('main')).toContainText('accept-cookies-v1');
    await lookAt(page, name);
    await fits360();
  }
});
