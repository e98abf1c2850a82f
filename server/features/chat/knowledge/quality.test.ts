import { describe, expect, it } from 'vitest';
import { builtInAnswer, notKnownText, retrieve } from './index.ts';

/*
 * Issue 16: retrieval quality on realistic visitor questions (worded as visitors write, not copied from the pages'
 * titles), each with the page a good answer comes from. At least 17 of 20 must list that page among the sources.
 */
export const qualityTable: readonly { question: string; path: string }[] = [
  {
    question: 'Do you guys do anything with machine learning or chatbots on company data?',
    path: '/services/ai',
  },
  { question: 'can I get my data out of dbui into a spreadsheet?', path: '/products/dbui' },
  { question: 'Does it work with Postgres and MS SQL?', path: '/products/dbui' },
  { question: 'Our reports take forever to run, can you speed up the queries?', path: '/services/database' },
  {
    question: 'We want to move our servers to AWS, is that something you help with?',
    path: '/services/cloud',
  },
  { question: 'What does it cost to buy your product?', path: '/products/dbui' },
  { question: 'How do I reach someone from your team?', path: '/contact-us' },
  { question: 'Do you track me with cookies?', path: '/privacy-policy' },
  { question: "Which state's law applies if there is a dispute?", path: '/terms-of-use' },
  { question: 'Who founded the company and what is their background?', path: '/resume' },
  { question: 'Can I look at the code of DBUI and run it myself?', path: '/home' },
  {
    question: 'Could you build us an internal tool to replace our Excel sheets?',
    path: '/services/custom-apps',
  },
  { question: 'Do you make phone apps that work with screen readers?', path: '/services/web-mobile' },
  {
    question: 'Is it possible to talk to an engineer before committing to anything?',
    path: '/services/consult',
  },
  {
    question: 'How do you handle database schema changes in two-week sprints?',
    path: '/news/Agile%20Development',
  },
  { question: 'Can I use an authenticator app when logging in?', path: '/account' },
  { question: 'How do I register?', path: '/account/signup' },
  { question: 'Can the admin restrict which tables I am allowed to edit?', path: '/products/dbui' },
  { question: 'How quickly do you reply to messages?', path: '/contact-us' },
  {
    question: 'What will AI mean for how software gets written?',
    path: '/news/The%20Future%20of%20Software',
  },
];

const offTopic = [
  'What will the weather be like in Paris tomorrow?',
  'Give me a recipe for banana bread',
  'Who won the football world cup in 2018?',
  'Write a poem about my cat',
];

describe('the built-in answers on the quality table', () => {
  it('finds the expected page for at least 17 of the 20 questions', () => {
    const misses = qualityTable.filter(
      ({ question, path }) => !builtInAnswer(question).sources.some((source) => source.path === path),
    );
    const score = qualityTable.length - misses.length;
    console.log(`Titan's quality: ${score}/${qualityTable.length}`);
    for (const miss of misses) {
      const got = builtInAnswer(miss.question).sources.map((source) => source.path);
      console.log(`  miss: "${miss.question}" expected ${miss.path}, got ${got.join(', ') || 'nothing'}`);
    }
    expect(qualityTable).toHaveLength(20);
    expect(score).toBeGreaterThanOrEqual(17);
  });

  it.each(offTopic)('says plainly it does not know: %s', (question) => {
    const answer = builtInAnswer(question);
    expect(answer.text).toBe(notKnownText);
    expect(answer.sources).toEqual([]);
    expect(answer.origin).toBe('built-in');
    expect(retrieve(question).confident).toBe(false);
  });
});
