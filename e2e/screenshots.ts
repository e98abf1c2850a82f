import { copyFile, mkdir } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { screenshotsWanted } from './support/look.ts';

/** The two sizes every journey is looked at in (brief: a phone and a laptop). */
export const viewports = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1366, height: 900 },
} as const;
export type ViewportName = keyof typeof viewports;
const VIEWPORT_NAMES: readonly ViewportName[] = ['phone', 'desktop'];

const DIRECTORY = 'test-results/screenshots';

/** Saves the page as it is now to test-results/screenshots/<name>-<viewport>.png, for a person to look at. */
export async function saveScreenshot(page: Page, name: string, viewport: ViewportName): Promise<string> {
  const path = `${DIRECTORY}/${name}-${viewport}.png`;
  if (!screenshotsWanted) return path;
  await mkdir(DIRECTORY, { recursive: true });
  // Let fonts and transitions settle so the picture shows the page as a person would see it.
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(300);
  await page.screenshot({ path, fullPage: true, animations: 'disabled' });
  return path;
}

/** Opens a path at each size in turn, runs `ready` to wait for the page, and saves both screenshots. */
export async function screenshotAtBothSizes(
  page: Page,
  path: string,
  name: string,
  ready: (page: Page) => Promise<void>,
): Promise<void> {
  for (const viewport of VIEWPORT_NAMES) {
    await page.setViewportSize(viewports[viewport]);
    await page.goto(path);
    await ready(page);
    await saveScreenshot(page, name, viewport);
  }
}

/** With UPDATE_SCREENSHOT=1, also saves the view as the README's picture, docs/screenshot.png. */
export async function updateReadmeScreenshot(page: Page): Promise<void> {
  if (process.env.UPDATE_SCREENSHOT !== '1') return;
  await mkdir('docs', { recursive: true });
  const temporary = `${DIRECTORY}/readme.png`;
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(300);
  await page.screenshot({ path: temporary, animations: 'disabled' });
  await copyFile(temporary, 'docs/screenshot.png');
}
