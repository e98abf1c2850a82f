import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { shellMessages } from '#common/messages.ts';
import { saveScreenshot, screenshotAtBothSizes, updateReadmeScreenshot, viewports } from './screenshots.ts';

const heroHeading = (page: Page) => page.getByRole('heading', { level: 1 });

// Every journey here runs under the server's Content-Security-Policy: any script, style, image or worker it blocks
// is reported by the page (securitypolicyviolation) and fails the journey, so the shell and every piece of it
// (Mantine's inserted styles, the start-up loader) are proven to work inside the policy.
const violations = new WeakMap<Page, string[]>();

test.beforeEach(async ({ page }) => {
  const seen: string[] = [];
  violations.set(page, seen);
  await page.exposeFunction('dbuiReportViolation', (text: string) => seen.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { dbuiReportViolation: (text: string) => void })
        .dbuiReportViolation;
      report(
        `${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} at ${event.sourceFile}:${event.lineNumber}`,
      );
    });
  });
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) seen.push(message.text());
  });
});

test.afterEach(({ page }) => {
  expect(violations.get(page), 'Content-Security-Policy violations').toEqual([]);
});

test('the empty path lands on the home page inside the shell', async ({ page }) => {
  // Errors in the console (a blocked style or script, a failed request) fail the journey.
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.setViewportSize(viewports.desktop);
  const answer = await page.goto('/');
  // The shell comes with its policy: scripts of the origin only, styles with this page's nonce.
  expect(answer?.headers()['content-security-policy']).toMatch(
    /script-src 'self';.*style-src 'self' 'nonce-/,
  );
  await expect(page).toHaveURL(/\/home$/);

  const header = page.getByRole('banner');
  await expect(header.getByRole('link', { name: 'DBUI', exact: true })).toBeVisible();
  const menu = header.getByRole('navigation', { name: 'Main' });
  await expect(menu.getByRole('link', { name: 'Home' })).toBeVisible();
  await expect(menu.getByRole('button', { name: 'Services' })).toBeVisible();
  await expect(menu.getByRole('button', { name: 'Products' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'About Us' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Contact Us' })).toBeVisible();
  await expect(header.getByRole('link', { name: 'Login' })).toBeVisible();
  await expect(header.getByRole('button', { name: 'Dark theme' })).toBeVisible();
  await expect(page.getByText(shellMessages.underDevelopment)).toBeVisible();

  await expect(heroHeading(page)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Discover the Solution' })).toHaveAttribute(
    'href',
    '/services/database',
  );
  await expect(page.getByRole('heading', { level: 3 })).toHaveCount(6);

  const footer = page.getByRole('contentinfo');
  await expect(footer.getByText('© 2025')).toBeVisible();
  for (const path of ['/products/dbui', '/about-us', '/contact-us', '/terms-of-use', '/privacy-policy']) {
    await expect(footer.locator(`a[href="${path}"]`)).toHaveCount(1);
  }
  await expect(footer.locator('a[href^="/services/"]')).toHaveCount(6);

  expect(errors).toEqual([]);

  await updateReadmeScreenshot(page);
  await screenshotAtBothSizes(page, '/home', 'home', async (p) => {
    await expect(heroHeading(p)).toBeVisible();
  });
});

test('the Services menu lists the six services and the logo goes home', async ({ page }) => {
  await page.setViewportSize(viewports.desktop);
  await page.goto('/error');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Services' }).click();
  const items = page.getByRole('menuitem');
  await expect(items).toHaveText([
    'Database Management',
    'Cloud Technology',
    'Custom Applications',
    'AI Connectivity',
    'Web & Mobile Apps',
    'Get a Consult',
  ]);
  await saveScreenshot(page, 'services-menu', 'desktop');
  await page.keyboard.press('Escape');

  await page.getByRole('banner').getByRole('link', { name: 'DBUI', exact: true }).click();
  await expect(page).toHaveURL(/\/home$/);
});

test('an unknown path shows the 404 page, and Go Back returns', async ({ page }) => {
  await page.setViewportSize(viewports.desktop);
  await page.goto('/home');
  await expect(heroHeading(page)).toBeVisible();
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: shellMessages.notFound })).toBeVisible();
  await page.getByRole('button', { name: 'Go Back' }).click();
  await expect(page).toHaveURL(/\/home$/);

  await screenshotAtBothSizes(page, '/no/such/page', 'not-found', async (p) => {
    await expect(p.getByRole('heading', { name: shellMessages.notFound })).toBeVisible();
  });
});

test('/error/unauthorized shows the 401 page with Go Back and Login', async ({ page }) => {
  await page.setViewportSize(viewports.desktop);
  await page.goto('/error/unauthorized');
  await expect(page.getByRole('heading', { name: shellMessages.unauthorized })).toBeVisible();
  const main = page.getByRole('main');
  await expect(main.getByRole('button', { name: 'Go Back' })).toBeVisible();
  await expect(main.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/account/login');

  await screenshotAtBothSizes(page, '/error/unauthorized', 'unauthorized', async (p) => {
    await expect(p.getByRole('heading', { name: shellMessages.unauthorized })).toBeVisible();
  });
});

test('on a phone the burger opens the menu with Login', async ({ page }) => {
  await page.setViewportSize(viewports.phone);
  await page.goto('/home');
  const header = page.getByRole('banner');
  await expect(header.getByRole('navigation', { name: 'Main' })).toBeHidden();
  await expect(header.getByRole('link', { name: 'Login' })).toBeHidden();

  await header.getByRole('button', { name: 'Open menu' }).click();
  const drawer = page.getByRole('dialog', { name: 'Menu' });
  await expect(drawer).toBeVisible();
  await expect(drawer.getByRole('link', { name: 'Login' })).toBeVisible();
  await expect(drawer.getByRole('switch', { name: 'Dark theme' })).toBeVisible();
  await drawer.getByRole('button', { name: 'Services' }).click();
  await expect(drawer.getByRole('link', { name: 'AI Connectivity' })).toBeVisible();
  await saveScreenshot(page, 'mobile-menu', 'phone');

  await drawer.getByRole('link', { name: 'About Us' }).click();
  await expect(page).toHaveURL(/\/about-us$/);
  await expect(drawer).toBeHidden();
});

test('/redirect goes on to the page in r and leaves no history entry of its own', async ({ page }) => {
  await page.setViewportSize(viewports.desktop);
  await page.goto('/home');
  await expect(heroHeading(page)).toBeVisible();
  await page.goto(`/redirect?r=${encodeURIComponent('/error/unauthorized')}`);
  await expect(page).toHaveURL(/\/error\/unauthorized$/);
  await expect(page.getByRole('heading', { name: shellMessages.unauthorized })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/home$/);

  // Anything but one of our pages goes home.
  await page.goto('/redirect?r=https%3A%2F%2Fexample.com');
  await expect(page).toHaveURL(/\/home$/);
});

test('a new page starts at the top', async ({ page }) => {
  await page.setViewportSize(viewports.phone);
  await page.goto('/home');
  await expect(heroHeading(page)).toBeVisible();
  await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click();
  await expect(page).toHaveURL(/\/privacy-policy$/);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
});

test('before the app has loaded, the page shows the starting loader', async ({ page }) => {
  await page.route('**/assets/*.js', (route) => route.abort());
  await page.goto('/home');
  await expect(page.getByRole('status')).toHaveText(shellMessages.starting);
});
