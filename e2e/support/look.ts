import { mkdir } from 'node:fs/promises';
import { expect, type Page } from '@playwright/test';
import { axeViolations } from './axe.ts';

/** The sizes every screen is looked at in (architecture habit 17): a phone and a laptop. */
const sizes = {
  phone: { width: 375, height: 812 },
  desktop: { width: 1366, height: 900 },
} as const;
const schemes = ['light', 'dark'] as const;
const DIRECTORY = 'test-results/screenshots';

/**
 * Whether the journeys save their pictures: always on a developer's machine, where a person looks at them after a
 * change (architecture habit 17); not in CI, where nobody does and the full-page pictures took a third of the run
 * (decision 0054), unless SCREENSHOTS=1. SCREENSHOTS=0 skips them anywhere.
 * The checks that go with looking (axe, the phone's width) run either way.
 */
export const screenshotsWanted: boolean =
  process.env.SCREENSHOTS === undefined ? !process.env.CI : process.env.SCREENSHOTS !== '0';

/**
 * Looks at the page as it is now, without navigating (a step of a journey keeps its state): an axe scan in light and
 * in dark (contrast only: the rest does not change with the scheme) that fails on serious or critical violations, then
 * screenshots at phone and desktop width in light and dark (test-results/screenshots/<name>-<phone|desktop>-<light|dark>.png)
 * for a person to look at, when they are wanted (not in CI: ../screenshots.ts). The page is left at
 * its original size and colour scheme.
 */
export async function lookAt(page: Page, name: string): Promise<void> {
  const original = page.viewportSize();
  await mkdir(DIRECTORY, { recursive: true });
  for (const scheme of schemes) {
    await page.emulateMedia({ colorScheme: scheme });
    await transitionsEnded(page);
    // The whole rule set once; in dark only what the scheme changes (contrast), which halves the scans' cost.
    const violations = await axeViolations(page, scheme === 'light' ? {} : { rules: ['color-contrast'] });
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(
      serious.map((v) => `${v.id}: ${v.help} (${v.targets.join(', ')})`),
      `accessibility of ${name} (${scheme})`,
    ).toEqual([]);
  }
  if (!screenshotsWanted) return;
  for (const [size, viewport] of Object.entries(sizes)) {
    await page.setViewportSize(viewport);
    for (const scheme of schemes) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.evaluate(() => document.fonts.ready);
      // Let layout and colour transitions settle so the picture shows what a person sees.
      await page.waitForTimeout(250);
      await page.screenshot({
        path: `${DIRECTORY}/${name}-${size}-${scheme}.png`,
        fullPage: true,
        animations: 'disabled',
      });
    }
  }
  await page.emulateMedia({ colorScheme: null });
  if (original) await page.setViewportSize(original);
}

/**
 * Resolves once the page shows the colour scheme it should (the person's stored choice, or the emulated one).
 * Mantine follows the emulated scheme from a matchMedia listener, a frame or more after emulateMedia: until its
 * attribute changes, the colours have not begun their transitions and getAnimations() has none to wait for (a dark
 * scan once measured a segmented control's label mid-transition). Polled from here, not with the page's timers,
 * which a journey's clock may hold still. A page without the attribute (no Mantine) resolves at once.
 */
async function schemeApplied(page: Page, deadline: number): Promise<void> {
  const applied = () =>
    page.evaluate(() => {
      const stored = localStorage.getItem('dbui-color-scheme');
      const dark =
        stored === 'dark' || (stored !== 'light' && matchMedia('(prefers-color-scheme: dark)').matches);
      const shown = document.documentElement.getAttribute('data-mantine-color-scheme');
      return shown === null || shown === (dark ? 'dark' : 'light');
    });
  while (Date.now() < deadline && !(await applied())) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** How long a scan waits at most for the page's transitions to end. */
const TRANSITIONS_MS = 5_000;

/**
 * Waits until the page's running transitions and finite animations have ended (at most TRANSITIONS_MS, timed here
 * and not in the page, whose clock a journey may have stopped): a dialog that has just appeared is still fading in,
 * and axe measured its buttons' contrast half transparent (a failure of the recovery codes' dialog on a slow run).
 * Endless animations (a loader) are not waited for.
 */
async function transitionsEnded(page: Page): Promise<void> {
  const ended = schemeApplied(page, Date.now() + TRANSITIONS_MS)
    .then(() =>
      page.evaluate(async () => {
        const finite = document
          .getAnimations()
          .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity);
        await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)));
      }),
    )
    .catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([ended, new Promise((resolve) => (timer = setTimeout(resolve, TRANSITIONS_MS)))]);
  clearTimeout(timer);
}
