import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { shellMessages } from '#common/messages.ts';
import { saveScreenshot, screenshotAtBothSizes, updateReadmeScreenshot, viewports } from './screenshots.ts';
import { lookAt } from './support/look.ts';
import { journeySiteLinks } from './support/site-links.ts';

const heroHeading = (page: Page) => page.getByRole('heading', { level: 1 });

// Every journey here runs under the server's Content-Security-Policy: any script, style, image or worker it blocks
// is reported by the page (securitypolicyviolation) and fails the journey, so the shell and every piece of it
// (Mantine's inserted styles, the start-up loader) are proven to work inside the policy.
const violations = new WeakMap<Page, string[]>();

test.beforeEach(async ({ page }) => {
  // The cookie banner (its own journey: e2e/consent.spec.ts) is answered beforehand, so it covers nothing here.
  await page.addInitScript(() => {
    localStorage.setItem(
      'accept-cookies-v1',
      JSON.stringify({ value: 'rejected', at: new Date().toISOString() }),
    );
  });
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
  await expect(page.getByTestId('services-cards').getByRole('link')).toHaveCount(6);

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

test('the under-development banner is pale yellow in light and dimmed amber in dark, never a bright strip', async ({
  page,
}) => {
  await page.setViewportSize(viewports.desktop);
  await page.goto('/home');
  const banner = page.locator('main > *').filter({ hasText: shellMessages.underDevelopment }).first();
  await expect(banner).toBeVisible();
  /** The banner's background and text colours as relative luminance (WCAG), 0 black to 1 white. */
  const luminance = () =>
    banner.evaluate((element) => {
      const channel = (value: number) => {
        const c = value / 255;
        return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      /** A colour painted over the page's own background (the banner's is translucent in dark). */
      const rgba = (text: string) => (text.match(/[\d.]+/g) ?? []).map(Number);
      const page = rgba(getComputedStyle(document.body).backgroundColor);
      const [r = 0, g = 0, b = 0, a = 1] = rgba(getComputedStyle(element).backgroundColor);
      const over = [r, g, b].map((value, i) => value * a + (page[i] ?? 0) * (1 - a));
      const of = ([red = 0, green = 0, blue = 0]: number[]) =>
        0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue);
      return { background: of(over), text: of(rgba(getComputedStyle(element).color)) };
    });
  await page.emulateMedia({ colorScheme: 'light' });
  await expect.poll(async () => (await luminance()).background).toBeGreaterThan(0.8);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(async () => (await luminance()).background).toBeLessThan(0.1);
  const dark = await luminance();
  // WCAG AA for its text: at least 4.5:1.
  expect((dark.text + 0.05) / (dark.background + 0.05)).toBeGreaterThanOrEqual(4.5);
});

test('before the app has loaded, the page shows the starting loader', async ({ page }) => {
  await page.route('**/assets/*.js', (route) => route.abort());
  await page.goto('/home');
  await expect(page.getByRole('status')).toHaveText(shellMessages.starting);
});

/** /contact-us itself, or where the access guard sends a signed-out visitor from it. */
const CONTACT_OR_GUARD = /\/contact-us$|\/account\/login\?r=%2Fcontact-us$|\/error\/unauthorized$/;

const SERVICE_ENTRIES = [
  ['Database Management', '/services/database'],
  ['Cloud Technology', '/services/cloud'],
  ['Custom Applications', '/services/custom-apps'],
  ['AI Connectivity', '/services/ai'],
  ['Web & Mobile Apps', '/services/web-mobile'],
  ['Get a Consult', '/services/consult'],
] as const;

test('every menu entry and dropdown item leads where spec 001 §2 says', async ({ page }) => {
  await page.setViewportSize(viewports.desktop);
  await page.goto('/home');
  const menu = page.getByRole('banner').getByRole('navigation', { name: 'Main' });
  for (const [label, path] of SERVICE_ENTRIES) {
    await menu.getByRole('button', { name: 'Services' }).click();
    await page.getByRole('menuitem', { name: label, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.getByRole('heading', { name: shellMessages.notFound })).toHaveCount(0);
  }
  await menu.getByRole('button', { name: 'Products' }).click();
  await expect(page.getByRole('menuitem')).toHaveText(['DBUI']);
  await page.getByRole('menuitem', { name: 'DBUI' }).click();
  await expect(page).toHaveURL(/\/products\/dbui$/);
  await menu.getByRole('link', { name: 'About Us' }).click();
  await expect(page).toHaveURL(/\/about-us$/);
  await menu.getByRole('link', { name: 'Home' }).click();
  await expect(page).toHaveURL(/\/home$/);
  // Contact Us needs a signed-in visitor: the access guard (not the shell) decides where the others go.
  await expect(menu.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/contact-us');
  await menu.getByRole('link', { name: 'Contact Us' }).click();
  await expect(page).toHaveURL(CONTACT_OR_GUARD);
});

test('the header is 8% of the window tall and fixed while the page scrolls', async ({ page }) => {
  for (const size of [viewports.desktop, { width: 375, height: 812 }]) {
    await page.setViewportSize(size);
    await page.goto('/home');
    const header = page.getByRole('banner');
    await expect(header).toBeVisible();
    const box = await header.boundingBox();
    expect(box?.height).toBeCloseTo(size.height * 0.08, 0);
    // The page's lazily loaded content may still be growing the document when the first wheel turns (it then
    // scrolls only as far as the page then was): turn it again until the page has scrolled well down.
    await expect(page.getByRole('contentinfo')).toBeAttached();
    await expect(async () => {
      await page.mouse.wheel(0, 1500);
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
    }).toPass();
    expect((await header.boundingBox())?.y).toBe(0);
  }
});

test('the main area is the rest of the window (92%): a short page fills it and the footer follows', async ({
  page,
}) => {
  for (const size of [viewports.desktop, { width: 375, height: 812 }]) {
    await page.setViewportSize(size);
    await page.goto('/products/dbui');
    await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
    const header = await page.getByRole('banner').boundingBox();
    const main = await page.getByRole('main').boundingBox();
    const footer = await page.getByRole('contentinfo').boundingBox();
    // The main element starts under the fixed header (its top padding is the header's height).
    const mainArea = (main?.height ?? 0) - (header?.height ?? 0);
    expect(mainArea).toBeGreaterThanOrEqual(size.height * 0.92 - 1);
    expect(footer?.y ?? 0).toBeGreaterThanOrEqual((main?.y ?? 0) + (main?.height ?? 0) - 1);
    expect(footer?.y ?? 0).toBeGreaterThanOrEqual(size.height - 1);
  }
});

test('on a 375 px phone the menu is a drawer 75% of the width', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/home');
  await page.getByRole('banner').getByRole('button', { name: 'Open menu' }).click();
  const drawer = page.getByRole('dialog', { name: 'Menu' });
  await expect(drawer).toBeVisible();
  await expect.poll(async () => (await drawer.boundingBox())?.width).toBeCloseTo(375 * 0.75, 0);
  await drawer.getByRole('button', { name: 'Products' }).click();
  await drawer.getByRole('link', { name: 'DBUI' }).click();
  await expect(page).toHaveURL(/\/products\/dbui$/);
  await expect(drawer).toBeHidden();
});

test('every navigation starts at the top, from the menu, the footer and the home page', async ({ page }) => {
  await page.setViewportSize(viewports.desktop);
  await page.goto('/home');
  await expect(heroHeading(page)).toBeVisible();
  const scrolledDown = async () => {
    // Scrolled again on each try: a page still loading is not yet tall enough.
    await expect
      .poll(() =>
        page.evaluate(() => {
          window.scrollTo(0, document.body.scrollHeight);
          return window.scrollY;
        }),
      )
      .toBeGreaterThan(300);
  };
  await scrolledDown();
  await page.getByRole('link', { name: 'Request Demo' }).click();
  await expect(page).toHaveURL(CONTACT_OR_GUARD);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);

  await page.goto('/services/database');
  await scrolledDown();
  await page.getByRole('contentinfo').getByRole('link', { name: 'Cloud Technology' }).click();
  await expect(page).toHaveURL(/\/services\/cloud$/);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
});

test('the footer links all lead to pages of the site', async ({ page }) => {
  await page.setViewportSize(viewports.desktop);
  await page.goto('/home');
  const hrefs = await page
    .getByRole('contentinfo')
    .locator('a[href^="/"]')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
  expect(hrefs.length).toBeGreaterThanOrEqual(11);
  for (const href of hrefs) {
    await page.goto(href);
    await expect(page.getByRole('main')).toBeVisible();
    await expect(page.getByRole('heading', { name: shellMessages.notFound }), href).toHaveCount(0);
  }
  // The external links are the operator's settings (this server's: e2e/support/site-links.ts), in a new tab.
  const outside = page.getByRole('contentinfo').locator('a[href^="https://"]');
  await expect(outside).toHaveCount(3);
  expect(await outside.evaluateAll((links) => links.map((link) => link.getAttribute('href')))).toEqual([
    journeySiteLinks.mastodon,
    journeySiteLinks.sourceCode,
    journeySiteLinks.shop,
  ]);
  for (const link of await outside.all()) await expect(link).toHaveAttribute('target', '_blank');
});

test('the home page: its banners and promo lead where the spec says, and its cards appear when scrolled to', async ({
  page,
}) => {
  await page.setViewportSize(viewports.desktop);
  await page.goto('/home');
  await expect(heroHeading(page)).toBeVisible();
  const href = (name: string) => page.getByRole('main').getByRole('link', { name, exact: true });
  await expect(href('Sign Up')).toHaveAttribute('href', '/account/signup');
  await expect(href('Learn More')).toHaveAttribute('href', '/products/dbui');
  await expect(href('Buy Now')).toHaveAttribute('href', '/products/dbui');
  await expect(href('Request Demo')).toHaveAttribute('href', '/contact-us');
  await expect(href('View All')).toHaveAttribute('href', '/news');
  await expect(page.getByRole('link', { name: /View the repository/ })).toHaveAttribute(
    'href',
    journeySiteLinks.sourceCode ?? '',
  );

  const news = page.getByTestId('news-cards');
  await expect(news).not.toHaveAttribute('data-revealed');
  await news.scrollIntoViewIfNeeded();
  await expect(news).toHaveAttribute('data-revealed', 'true');
  await expect(news.getByRole('link', { name: /^Read More: / })).toHaveCount(3);
  await news
    .getByRole('link', { name: /^Read More: / })
    .first()
    .click();
  await expect(page).toHaveURL(/\/news\/[^/]+$/);
  await expect(page.getByRole('heading', { name: shellMessages.notFound })).toHaveCount(0);

  // The look: every card shown (scrolled through once), from the top.
  await page.goto('/home');
  await page.getByTestId('services-cards').scrollIntoViewIfNeeded();
  await page.getByTestId('news-cards').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('news-cards')).toHaveAttribute('data-revealed', 'true');
  await page.waitForTimeout(1600);
  await page.evaluate(() => window.scrollTo(0, 0));
  await lookAt(page, 'home');
});
