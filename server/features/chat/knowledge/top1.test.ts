import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sitePageTitles } from './corpus.ts';
import { builtInAnswer, notKnownText } from './index.ts';
import data from './visitor-questions.json';

/*
 * Issue 32 item 15: top-1 accuracy of the built-in answer (no model) on visitors' questions (visitor-questions.json).
 * A question is right when the first page Titan cites is the labelled one, or, for a question the site does not
 * answer (page null), when Titan says plainly that it does not know. Both kinds count in the score.
 */
const table = z
  .object({
    questions: z.array(
      z.object({ question: z.string().min(1), page: z.string().startsWith('/').nullable() }),
    ),
  })
  .parse(data).questions;

/** The share of the table that must be right. */
const REQUIRED = 0.9;

function outcome(question: string): string | null {
  const answer = builtInAnswer(question);
  if (answer.text === notKnownText) return null;
  return answer.sources[0]?.path ?? null;
}

describe('top-1 on visitors’ questions', () => {
  it('labels at least 40 questions, a few off-topic, each with a page Titan can cite', () => {
    expect(table.length).toBeGreaterThanOrEqual(40);
    expect(table.filter(({ page }) => page === null).length).toBeGreaterThanOrEqual(5);
    expect(new Set(table.map(({ question }) => question)).size).toBe(table.length);
    const titles = sitePageTitles();
    for (const { page } of table) if (page !== null) expect(titles.has(page), page).toBe(true);
  });

  it(`cites the labelled page first (or says it does not know) for at least ${REQUIRED * 100} %`, () => {
    const misses = table
      .map(({ question, page }) => ({ question, page, got: outcome(question) }))
      .filter(({ page, got }) => got !== page);
    const right = table.length - misses.length;
    console.log(`Titan's top-1: ${right}/${table.length} (${((100 * right) / table.length).toFixed(1)} %)`);
    for (const { question, page, got } of misses)
      console.log(`  miss: "${question}" expected ${page ?? 'I do not know'}, got ${got ?? 'I do not know'}`);
    expect(right / table.length).toBeGreaterThanOrEqual(REQUIRED);
  });

  it('answers the export question of issue 32 with the product page, and says exports can be cancelled', () => {
    const answer = builtInAnswer('How do I export to CSV and can I cancel?');
    expect(answer.text).not.toBe(notKnownText);
    expect(answer.sources[0]?.path).toBe('/products/dbui');
    expect(answer.text).toMatch(/CSV/);
    expect(answer.text).toMatch(/cancel/i);
  });

  it('answers when DBUI will be available with the product page, and says it is not released yet', () => {
    const answer = builtInAnswer('When will DBUI be available?');
    expect(answer.text).not.toBe(notKnownText);
    expect(answer.sources[0]?.path).toBe('/products/dbui');
    expect(answer.text).toMatch(/general release|coming soon/i);
  });
});
