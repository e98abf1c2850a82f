import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { newsArticles, newsPath } from '#common/content/news.ts';
import { resume, splitInterests } from '#common/content/resume.ts';
import { startAppServer, type AppServer } from './support/app-server.ts';
import { lookAt } from './support/look.ts';

/*
 * The news and resume pages (spec 001 §2, §9), signed out: /news lists the four articles, each /news/{title} renders
 * with its body in two columns, an unknown title falls back to the first article, the 'Want to keep Reading?' links
 * navigate, and /resume shows its cards with the interests split as §9 says. Each page is looked at once (axe,
 * screenshots at phone and desktop width, light and dark). One server for this file.
 */

let server: AppServer;
let context: BrowserContext;
let page: Page;

test.describe.configure({ mode: 'serial', timeout: 180_000 });

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  server = await startAppServer('site-news-resume');
  context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  page = await context.newPage();
  // The cookie banner (spec 001 §2) is fixed at the bottom and would cover the screenshots: decline it once, as a
  // visitor would (the choice is remembered in this context).
  await page.goto(`${server.origin}/news`);
  const reject = page.getByRole('button', { name: 'Reject' });
  const shown = await reject.waitFor({ state: 'visible', timeout: 5000 }).then(
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

const h1 = () => page.getByRole('heading', { level: 1 });
const keepReading = () =>
  page.locator('section').filter({ has: page.getByRole('heading', { name: 'Want to keep Reading?' }) });

test('/news lists the four articles, and Read More opens one', async () => {
  await page.goto(`${server.origin}/news`);
  await expect(h1()).toHaveText('News');
  for (const article of newsArticles) {
    await expect(page.getByRole('heading', { level: 2, name: article.title })).toBeVisible();
  }
  await lookAt(page, 'news');
  const last = newsArticles[newsArticles.length - 1];
  await page.getByRole('link', { name: `Read More: ${last?.title ?? ''}` }).click();
  await expect(page).toHaveURL(`${server.origin}/news/The%20Future%20of%20Software`);
  await expect(h1()).toHaveText('The Future of Software');
});

test('every article renders, and Want to keep Reading? links navigate', async () => {
  for (const article of newsArticles) {
    await page.goto(server.origin + newsPath(article));
    await expect(h1()).toHaveText(article.title);
    await expect(page.getByTestId('news-column-2').locator('p')).toHaveCount(3);
    await expect(keepReading().getByRole('heading', { level: 3 })).toHaveCount(3);
  }
  await page.goto(server.origin + newsPath(newsArticles[0]));
  await lookAt(page, 'news-article');
  const next = newsArticles[2];
  await keepReading()
    .getByRole('link', { name: `Read More: ${next?.title ?? ''}` })
    .click();
  await expect(page).toHaveURL(server.origin + newsPath({ title: next?.title ?? '' }));
  await expect(h1()).toHaveText(next?.title ?? '');
  // The article just left is now among the other three.
  await expect(keepReading().getByRole('heading', { level: 3, name: newsArticles[0].title })).toBeVisible();
  await keepReading().getByRole('link', { name: newsArticles[0].title, exact: true }).click();
  await expect(h1()).toHaveText(newsArticles[0].title);
});

test('an unknown title shows the first article', async () => {
  await page.goto(`${server.origin}/news/No%20Such%20Article`);
  await expect(h1()).toHaveText(newsArticles[0].title);
  await expect(keepReading().getByRole('heading', { level: 3 })).toHaveCount(3);
});

test('/resume shows the resume with its cards, the interests split as spec 001 §9 says', async () => {
  await page.goto(`${server.origin}/resume`);
  await expect(h1()).toHaveText(resume.name);
  await expect(page.getByRole('status')).toHaveCount(0);
  for (const name of [
    'Summary',
    'Work History',
    'Education',
    'Skills',
    'Soft Skills',
    'Achievements',
    'Interests',
  ]) {
    await expect(page.getByRole('heading', { level: 2, name, exact: true })).toBeVisible();
  }
  const { first, second } = splitInterests(resume.interests);
  await expect(page.getByTestId('interests-column-1').getByRole('listitem')).toHaveText([...first]);
  await expect(page.getByTestId('interests-column-2').getByRole('listitem')).toHaveText([...second]);
  await lookAt(page, 'resume');
});
