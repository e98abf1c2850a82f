import { describe, expect, it } from 'vitest';
import { builtInAnswer, greetingText, notKnownText, retrieve } from './index.ts';

/*
 * Issue 16: a second table, written to measure recall on questions as visitors word them (their vocabulary, not the
 * pages': "hire you", "move our data", "2FA", "GDPR"; a few typos; short and long), each with the pages a good
 * answer may come from. Written before the retrieval was tuned for it, so it measures rather than fits. At least 26
 * of 30 must list an acceptable page among the sources, and every off-topic question must stay unanswered.
 */
export const recallTable: readonly { question: string; paths: readonly string[] }[] = [
  {
    question:
      'We are a mid-sized logistics firm and would like to move our data and our on-premise servers to the cloud next year. Can you help?',
    paths: ['/services/cloud', '/services/database'],
  },
  {
    question: "We'd like to hire you for a project. How do we get started?",
    paths: ['/contact-us', '/services/consult'],
  },
  { question: 'Is DBUI free?', paths: ['/products/dbui', '/home', '/account/signup'] },
  { question: 'can i see who chnaged a row?', paths: ['/products/dbui'] },
  { question: 'does dbui wrok on my phone', paths: ['/products/dbui', '/about-us', '/services/web-mobile'] },
  { question: 'Are you GDPR complient?', paths: ['/privacy-policy'] },
  { question: 'Can I do 2FA with an app instead of SMS?', paths: ['/account'] },
  { question: 'How long have you been in business?', paths: ['/about-us', '/resume'] },
  {
    question: 'Our app got really sluggish since the database grew. What can you do about it?',
    paths: ['/services/database'],
  },
  {
    question: "Could an assistant answer our staff's questions from our manuals and policies?",
    paths: ['/services/ai'],
  },
  {
    question: 'What programming languages do you use for custom software?',
    paths: ['/services/custom-apps'],
  },
  {
    question: "I lost my phone and now I can't get past the code step when I sign in",
    paths: ['/account'],
  },
  {
    question: 'Can your engineers teach our developers to write better SQL?',
    paths: ['/services/consult'],
  },
  {
    question: 'How do I delete my account and everything you have on me?',
    paths: ['/privacy-policy', '/terms-of-use', '/account'],
  },
  { question: 'Can I get a copy of the personal data you hold about me?', paths: ['/privacy-policy'] },
  { question: 'Do you sell my data to advertisers?', paths: ['/privacy-policy'] },
  { question: 'Do I have to know SQL to use DBUI?', paths: ['/products/dbui'] },
  {
    question: 'Can we try DBUI on our own database before we buy it?',
    paths: ['/products/dbui', '/home', '/contact-us'],
  },
  { question: 'Do you check that backups actually restore?', paths: ['/services/database'] },
  {
    question: 'We still run an old MS Access application. Can you bring it to the web?',
    paths: ['/services/custom-apps'],
  },
  { question: 'Can you audit our website for blind users?', paths: ['/services/web-mobile'] },
  { question: 'What happens if our cloud provider has an outage?', paths: ['/services/cloud'] },
  { question: 'our aws bill is way too high, can you lower it', paths: ['/services/cloud'] },
  { question: 'Does DBUI connect to Oracle?', paths: ['/products/dbui'] },
  { question: 'Who is behind this company?', paths: ['/about-us', '/resume'] },
  { question: 'Are you a big agency or a small shop?', paths: ['/about-us'] },
  { question: 'Do I need an account to send you a message?', paths: ['/contact-us'] },
  { question: 'Do you keep what I type in this chat?', paths: ['/privacy-policy'] },
  {
    question: 'Do you write automated tests for the software you deliver?',
    paths: ['/services/custom-apps', '/services/cloud'],
  },
  { question: 'What are your hourly rates?', paths: ['/services/consult'] },
];

/** Questions the site does not answer: Titan must say it does not know, and link nothing. */
export const offTopicTable: readonly string[] = [
  'Tell me a joke about programmers',
  'What is the capital of Australia?',
  'Will it rain in London this weekend?',
  'How do I make a good lasagna?',
  'Who will win the NBA finals this year?',
  'Who should I vote for in the next election?',
  'My car makes a grinding noise when I brake, what is wrong with it?',
  'Can you solve 3x + 5 = 20 for my homework?',
  'What is the best movie of 2023?',
  'How do I train my puppy to stop biting?',
  'Translate "thank you for your order" into Japanese',
  'What is the meaning of life?',
  'Recommend a cheap hotel in Rome',
  'How many calories are in an avocado?',
  'What is the price of bitcoin today?',
];

/*
 * Held out: written with the tables above, before any tuning, and never used to tune (no synonym or rule was added
 * for them). Their score is logged, not asserted, as an honest estimate of recall on questions nobody tuned for.
 */
export const heldOut: readonly { question: string; paths: readonly string[] }[] = [
  {
    question: 'Do you provide ongoing support after the project ends?',
    paths: ['/services/custom-apps', '/services/database'],
  },
  { question: 'Can you set up CI/CD for us?', paths: ['/services/cloud'] },
  { question: 'Is there a free consultation?', paths: ['/services/consult'] },
  { question: 'Can I export only the rows I filtered?', paths: ['/products/dbui'] },
  { question: 'How do passkeys work on your site?', paths: ['/account'] },
  { question: 'Do you do Terraform?', paths: ['/services/cloud'] },
  { question: 'How do you protect our data when you have access to our servers?', paths: ['/about-us'] },
  { question: 'Do you work for hospitals or clinics?', paths: ['/about-us', '/resume'] },
  { question: "Can the assistant see data the user isn't allowed to see?", paths: ['/services/ai'] },
  { question: 'Will you write a report after reviewing our system?', paths: ['/services/consult'] },
  { question: 'Can you integrate our CRM with our online shop?', paths: ['/services/custom-apps'] },
  { question: 'How many rows can DBUI show before it gets slow?', paths: ['/products/dbui'] },
  { question: 'Where can I change my cookie settings?', paths: ['/privacy-policy'] },
  { question: 'Which courts handle disputes?', paths: ['/terms-of-use'] },
  { question: 'Do you keep logs of my IP address?', paths: ['/privacy-policy'] },
  { question: 'Can I recover a row I deleted by accident in DBUI?', paths: ['/products/dbui'] },
  {
    question: 'Is your software accessible with a screen reader?',
    paths: ['/services/web-mobile', '/about-us'],
  },
  {
    question: 'Can you review a proposal from another vendor before we sign?',
    paths: ['/services/consult'],
  },
  { question: 'How many years of experience does the founder have?', paths: ['/about-us', '/resume'] },
  { question: 'Do you build native iOS apps?', paths: ['/services/web-mobile'] },
  { question: 'Can we run the models on our own hardware?', paths: ['/services/ai'] },
  { question: 'Is there an audit log of admin actions?', paths: ['/products/dbui', '/privacy-policy'] },
];

export const heldOutOffTopic: readonly string[] = [
  'What time is it in Tokyo?',
  'Who painted the Mona Lisa?',
  'How do I fix a leaking tap?',
  'Which phone should I buy, iPhone or Android?',
  'Tell me about the history of Rome',
  'What is a good name for my dog?',
  'How tall is Mount Everest?',
  'Can you help me write a cover letter?',
  'What are the symptoms of flu?',
  'Best pizza in New York?',
];

/*
 * The questions a reviewer found unanswered (the retrieval was tuned on these: they are a check, not a measure), with
 * the page each answer must link.
 */
const probes: readonly { question: string; path: string }[] = [
  { question: 'Can you help us migrate our database to a new server?', path: '/services/database' },
  { question: 'How do I reset my password?', path: '/account/forgotPassword' },
  { question: 'Can DBUI handle a table with 50 million rows?', path: '/products/dbui' },
  { question: 'Do you do AI projects?', path: '/services/ai' },
  { question: 'What is Titan?', path: '/contact-us' },
];

function sourcePaths(question: string): string[] {
  return builtInAnswer(question).sources.map((source) => source.path);
}

describe('recall on visitors’ own wording', () => {
  it('finds an acceptable page for at least 26 of the 30 questions', () => {
    const misses = recallTable.filter(
      ({ question, paths }) => !sourcePaths(question).some((path) => paths.includes(path)),
    );
    const score = recallTable.length - misses.length;
    console.log(`Titan's recall: ${score}/${recallTable.length}`);
    for (const miss of misses) {
      const got = sourcePaths(miss.question);
      console.log(
        `  miss: "${miss.question}" expected ${miss.paths.join(' or ')}, got ${got.join(', ') || 'nothing'}`,
      );
    }
    expect(recallTable).toHaveLength(30);
    expect(score).toBeGreaterThanOrEqual(26);
  });

  it('rejects all 15 off-topic questions', () => {
    const answered = offTopicTable.filter((question) => builtInAnswer(question).text !== notKnownText);
    console.log(
      `Titan's off-topic rejection: ${offTopicTable.length - answered.length}/${offTopicTable.length}`,
    );
    for (const question of answered)
      console.log(`  answered: "${question}" with ${sourcePaths(question).join(', ')}`);
    expect(offTopicTable).toHaveLength(15);
    expect(answered).toEqual([]);
    for (const question of offTopicTable) expect(retrieve(question).confident, question).toBe(false);
  });

  it('logs the held-out score (not asserted)', () => {
    const hits = heldOut.filter(({ question, paths }) =>
      sourcePaths(question).some((path) => paths.includes(path)),
    );
    const rejected = heldOutOffTopic.filter((question) => builtInAnswer(question).text === notKnownText);
    console.log(
      `Titan's held-out recall: ${hits.length}/${heldOut.length}, off-topic rejected ${rejected.length}/${heldOutOffTopic.length}`,
    );
    for (const { question, paths } of heldOut) {
      if (!hits.some((hit) => hit.question === question))
        console.log(
          `  held-out miss: "${question}" expected ${paths.join(' or ')}, got ${sourcePaths(question).join(', ') || 'nothing'}`,
        );
    }
    for (const question of heldOutOffTopic) {
      if (!rejected.includes(question))
        console.log(`  held-out answered: "${question}" with ${sourcePaths(question).join(', ')}`);
    }
    expect(heldOut.length + heldOutOffTopic.length).toBeGreaterThan(0);
  });

  it.each(probes)('answers the reviewer’s question "$question" from $path', ({ question, path }) => {
    const answer = builtInAnswer(question);
    expect(answer.text).not.toBe(notKnownText);
    expect(answer.text).not.toBe(greetingText);
    expect(answer.sources.map((source) => source.path)).toContain(path);
  });
});
