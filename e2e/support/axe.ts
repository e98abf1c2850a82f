import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import type { AxeResults, RunOptions } from 'axe-core';

/*
 * axe-core run in the page as it is, its script put in once per document. @axe-core/playwright's AxeBuilder put the
 * 550 KB script into the page again on every scan and, by default, opened a blank page to merge the results: a
 * scan cost 5-8 s on a busy two-core machine where this one costs 0.4-0.9 s (measured side by side on /home,
 * 2026-12-03), and the journeys scan over a hundred screens twice each (decision 0054).
 * The app has no frames, so a run in the top document sees everything a person does.
 */

const source = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** A violation as the journeys report it. */
export type AxeViolation = Pick<AxeResults['violations'][number], 'id' | 'impact' | 'help'> & {
  targets: string[];
};

declare global {
  interface Window {
    axe?: { run(context: unknown, options: RunOptions): Promise<AxeResults> };
  }
}

/**
 * The violations axe finds in the page, or in the elements `include` selects; `rules` limits the run to those
 * rules (all of axe's default rules otherwise).
 */
export async function axeViolations(
  page: Page,
  { rules, include }: { rules?: string[]; include?: string } = {},
): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => window.axe !== undefined))) await page.evaluate(source);
  const options: RunOptions = {
    resultTypes: ['violations'],
    ...(rules ? { runOnly: { type: 'rule', values: rules } } : {}),
  };
  return page.evaluate(
    async ([options, include]) => {
      const results = await window.axe!.run(include ? { include: [include] } : document, options);
      return results.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.map((n) => n.target.join(' ')),
      }));
    },
    [options, include] as const,
  );
}
