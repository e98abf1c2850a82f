import { expect, type Page } from '@playwright/test';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';

/**
 * Solves the server's human check in Node as the ALTCHA widget does in the page, and answers the base64 payload the
 * API takes as `token`: for set-up steps through the API only (journeys use the real widget).
 */
export async function solveHumanCheck(origin: string): Promise<string> {
  const challenge: unknown = await (await fetch(`${origin}/api/captcha`)).json();
  const solution = await solveChallenge({ challenge: challenge as never, deriveKey });
  if (!solution) throw new Error('the human check could not be solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/** Ticks the page's real human-check widget as a person does and waits until it has solved its challenge. */
export async function tickHumanCheck(page: Page): Promise<void> {
  const widget = page.getByTestId('human-check');
  // A person clicks the words beside the box (the drawn tick mark lies over the box itself).
  await widget.getByText("I'm not a robot", { exact: true }).click();
  await expect(widget.locator('[data-state="verified"]')).toBeVisible({ timeout: 20_000 });
  await expect(widget).toContainText('Verified');
}
