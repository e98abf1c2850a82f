import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { startAppServer, type AppServer } from './support/app-server.ts';
import { openSignedIn, signInAdmin } from './support/chinook-roles.ts';
import { lookAt } from './support/look.ts';

/*
 * The content creator at /cc (spec 001 §2, §4, §9; issue 15): signed in, the page shows without the site's header;
 * T opens the Templates modal, Heading 1's preview takes a width, Add Element makes it follow the mouse on the
 * 1vw by 1vh grid and a click places it; after a reload it is still there (localStorage), and it is selected, moved
 * with the arrow keys and deleted with the Delete key. One server for this file.
 */

const viewport = { width: 1000, height: 800 };

let server: AppServer;
let context: BrowserContext;
let page: Page;

test.describe.configure({ mode: 'serial', timeout: 180_000 });

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  server = await startAppServer('creator');
  // A context of its own (axe needs one made with newContext): one person's browser for the steps.
  context = await browser.newContext({ viewport });
  page = await context.newPage();
  await openSignedIn(page, server, await signInAdmin(server), '/cc');
});

test.afterAll(async () => {
  await context?.close();
  await server?.stop();
});

const canvasElements = () => page.getByRole('region', { name: 'Canvas' }).getByRole('button');

test('the creator hides the header; T opens the templates and Heading 1 is placed with the mouse', async () => {
  const tools = page.getByRole('region', { name: 'Content creator tools' });
  await expect(tools.getByRole('heading', { name: 'Content creator' })).toBeVisible();
  await expect(page.getByRole('banner')).toHaveCount(0);
  await expect(page.getByRole('contentinfo')).toHaveCount(0);

  await page.keyboard.press('t');
  const modal = page.getByRole('dialog', { name: 'Templates' });
  await expect(modal.getByRole('button', { name: /Heading 2/ })).toBeVisible();
  await modal.getByRole('button', { name: /Heading 1/ }).click();

  // The preview: width, height, both alignments (Start, Center, End) and the Text parameter.
  await expect(modal.getByRole('textbox', { name: 'Height' })).toHaveValue('6');
  await expect(modal.getByRole('radiogroup', { name: 'H. Alignment' }).getByRole('radio')).toHaveCount(3);
  await expect(
    modal.getByRole('radiogroup', { name: 'V. Alignment' }).getByRole('radio', { name: 'End' }),
  ).toBeVisible();
  await expect(modal.getByRole('textbox', { name: 'Text' })).toHaveValue('Title');
  await modal.getByRole('button', { name: 'Back' }).click();
  await modal.getByRole('button', { name: /Heading 1/ }).click();
  await modal.getByRole('textbox', { name: 'Width' }).fill('20');
  await modal
    .getByRole('radiogroup', { name: 'H. Alignment' })
    .getByRole('radio', { name: 'Center' })
    .check();
  await modal.getByRole('textbox', { name: 'Text' }).fill('Quarterly report');
  // A picture of the preview for a person to look at (the page's own look is taken below).
  await page.screenshot({
    path: 'test-results/screenshots/creator-preview-desktop-light.png',
    animations: 'disabled',
  });
  await modal.getByRole('button', { name: 'Add Element' }).click();
  await expect(modal).toBeHidden();

  // The held element follows the mouse in whole cells: 300 px of 1000 is 30 vw, 240 px of 800 is 30 vh.
  await page.mouse.move(100, 100);
  await page.mouse.move(305, 245, { steps: 4 });
  await expect(page.getByRole('region', { name: 'Content creator tools' }).getByRole('status')).toContainText(
    'at 30 vw, 30 vh follows the mouse',
  );
  await page.mouse.click(305, 245);

  const placed = canvasElements();
  await expect(placed).toHaveCount(1);
  await expect(placed.first()).toHaveAccessibleName('Heading 1 “Quarterly report” at 30 vw, 30 vh');
  const box = await placed.first().boundingBox();
  expect(box).toMatchObject({ x: 300, y: 240, width: 200, height: 48 });
  await lookAt(page, 'creator');
});

test('the layout survives a reload; an element is selected, moved and deleted with the keyboard', async () => {
  await page.reload();
  const element = canvasElements().first();
  await expect(element).toHaveAccessibleName('Heading 1 “Quarterly report” at 30 vw, 30 vh');

  await element.focus();
  await page.keyboard.press('Enter');
  await expect(element).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Shift+ArrowDown');
  await expect(element).toHaveAccessibleName('Heading 1 “Quarterly report” at 31 vw, 40 vh');

  // Dragging moves it too: grabbed in its middle, dropped 10 vw to the left.
  const box = await element.boundingBox();
  if (!box) throw new Error('the element has no box');
  await page.mouse.move(box.x + 20, box.y + 10);
  await page.mouse.down();
  await page.mouse.move(box.x - 80, box.y + 10, { steps: 5 });
  await page.mouse.up();
  await expect(element).toHaveAccessibleName('Heading 1 “Quarterly report” at 21 vw, 40 vh');

  await element.focus();
  await page.keyboard.press('Delete');
  await expect(canvasElements()).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('region', { name: 'Content creator tools' }).getByRole('status')).toHaveText(
    'Press T or choose Templates to add an element.',
  );
  await expect(canvasElements()).toHaveCount(0);
});
