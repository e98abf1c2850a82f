import { describe, expect, it } from 'vitest';
import { about } from '#common/content/about.ts';
import { faq, faqAnswer } from '#common/content/faq.ts';
import { privacyPolicy, termsOfUse } from '#common/content/legal.ts';
import { newsArticles, newsPath } from '#common/content/news.ts';
import { serviceDetails, servicePath } from '#common/content/services.ts';
import { noSiteLinks, type SiteLinks } from '#common/content/site.ts';
import { CHAT_MESSAGE_LIMIT } from '#common/limits.ts';
import { buildCorpus, plainText, sitePageTitles } from './corpus.ts';
import {
  builtInAnswer,
  EXCERPT_MAX,
  excerpt,
  greetingText,
  introduction,
  notKnownText,
  notKnownTextOf,
  retrieve,
  stem,
  thanksText,
} from './index.ts';

/** A site whose outside addresses are all set (the operator's settings). */
const site: SiteLinks = {
  mastodon: 'https://social.example.org/@dbui',
  sourceCode: 'https://code.example.org/dbui',
  shop: 'https://shop.example.org',
  supportEmail: 'help@example.org',
};
const corpus = buildCorpus(site);
const titles = sitePageTitles();

function onPage(path: string) {
  return corpus.filter((passage) => passage.path === path);
}

/** The Markdown links of a text: [label](target). */
function links(text: string): { label: string; target: string }[] {
  return [...text.matchAll(/\[([^\]]+)\]\(([^)\s]+)\)/g)].map((match) => ({
    label: match[1] ?? '',
    target: match[2] ?? '',
  }));
}

describe('the corpus', () => {
  it('gives every passage a unique id, a known page, a title and text', () => {
    expect(new Set(corpus.map((passage) => passage.id)).size).toBe(corpus.length);
    for (const passage of corpus) {
      expect(titles.get(passage.path), passage.id).toBe(passage.title);
      expect(passage.text.length, passage.id).toBeGreaterThan(0);
    }
  });

  it('holds every service: its summary, descriptions and each offer, on its page', () => {
    for (const service of serviceDetails) {
      const text = onPage(servicePath(service.id))
        .map((passage) => passage.text)
        .join(' ');
      expect(text).toContain(service.description);
      expect(text).toContain(service.description2);
      for (const offer of service.offers) expect(text).toContain(offer.text);
    }
  });

  it('holds every news article, each paragraph, at the address the site links', () => {
    expect(newsPath(newsArticles[0])).toBe('/news/Streamlining%20Business%20Operations');
    for (const article of newsArticles) {
      const text = onPage(newsPath(article))
        .map((passage) => passage.text)
        .join(' ');
      for (const paragraph of article.content) expect(text).toContain(plainText(paragraph));
      expect(text).toContain(article.summary);
    }
  });

  it('holds every section of the privacy policy and the terms of use', () => {
    for (const [document, path] of [
      [privacyPolicy, '/privacy-policy'],
      [termsOfUse, '/terms-of-use'],
    ] as const) {
      const sections = onPage(path).map((passage) => passage.section);
      for (const section of document.sections) expect(sections).toContain(section.heading);
    }
  });

  it('holds the product, about us, the resume and the home page', () => {
    expect(onPage('/products/dbui').length).toBeGreaterThan(3);
    expect(onPage('/about-us').map((passage) => passage.text)).toContain(about.intro);
    expect(onPage('/resume').some((passage) => passage.text.includes('Jordan Ellis'))).toBe(true);
    expect(
      onPage('/home').some((passage) => passage.text.includes(`The repository: ${site.sourceCode}`)),
    ).toBe(true);
  });

  it('holds every FAQ entry, under its question and on its page', () => {
    expect(faq.length).toBeGreaterThanOrEqual(15);
    expect(faq.length).toBeLessThanOrEqual(25);
    for (const entry of faq) {
      expect(titles.has(entry.path), entry.path).toBe(true);
      expect(corpus).toContainEqual(
        expect.objectContaining({ section: entry.question, path: entry.path, text: faqAnswer(entry, site) }),
      );
    }
  });

  it("names the site's outside addresses where they are set, and leaves them out where not (issue 32)", () => {
    const texts = corpus.map((passage) => passage.text).join(' ');
    expect(texts).toContain(site.supportEmail);
    expect(texts).toContain(site.sourceCode);
    for (const passage of buildCorpus(noSiteLinks)) {
      // The résumé is a person's page with their own contact; every other page names no address but its own paths.
      if (passage.path === '/resume') continue;
      expect(passage.text, passage.id).not.toMatch(/@|https?:|\.example\b|repository:/);
    }
    expect(
      faqAnswer(
        faq.find((entry) => entry.question === 'How can I contact you?')!,
        noSiteLinks,
      ),
    ).toBe(
      'Write to us from the Contact Us page (you need an account; we answer to its email address). Your message ' +
        'goes to the engineers who would do the work, not to a sales queue.',
    );
  });

  it('strips HTML tags and entities, and no passage keeps markup', () => {
    expect(
      plainText('<p>Fast &amp; <b>safe</b>&nbsp;tables</p>\n<script>alert(1)</script>&#39;ok&#x21;'),
    ).toBe("Fast & safe tables 'ok!");
    for (const passage of corpus) {
      expect(passage.text, passage.id).not.toMatch(/<\/?[a-z][^>]*>|&[a-z]+;/i);
      expect(passage.text, passage.id).not.toMatch(/\s{2,}/);
    }
  });
});

describe('retrieve', () => {
  it('returns at most the limit, best first, with scores', () => {
    const { passages, confident } = retrieve('Which export formats does DBUI have?', 2);
    expect(confident).toBe(true);
    expect(passages.length).toBeGreaterThan(0);
    expect(passages.length).toBeLessThanOrEqual(2);
    expect(passages[0]?.path).toBe('/products/dbui');
    const scores = passages.map((passage) => passage.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('is not confident about greetings, empty text or off-topic questions', () => {
    for (const question of ['Hello!', '', '   ', '?!', 'What is the capital of France?']) {
      expect(retrieve(question).confident, question).toBe(false);
    }
  });

  it('stems plurals and verb forms alike', () => {
    expect(stem('exports')).toBe(stem('export'));
    expect(stem('exporting')).toBe(stem('export'));
    expect(stem('queries')).toBe(stem('query'));
    expect(stem('migrating')).toBe(stem('migrate'));
    expect(stem('migration')).toBe(stem('migrate'));
  });

  it('reads misspelt words, visitors’ words and numbers', () => {
    for (const [question, path] of [
      ['can i see who chnaged a row?', '/products/dbui'],
      ['Can DBUI handle a table with 50 million rows?', '/products/dbui'],
      ['Our AWS bill is too high, can you lower it?', '/services/cloud'],
    ] as const) {
      expect(retrieve(question).confident, question).toBe(true);
      expect(
        retrieve(question).passages.map((passage) => passage.path),
        question,
      ).toContain(path);
    }
  });
});

describe('builtInAnswer', () => {
  const questions = [
    'How do I export a table to Excel?',
    'Do you help with cloud costs?',
    'What happens to my data after I delete my account?',
    'Tell me about agile development',
  ];

  it.each(questions)('links only site pages, with sources once per page: %s', (question) => {
    const answer = builtInAnswer(question);
    expect(answer.origin).toBe('built-in');
    const found = links(answer.text);
    expect(found.length).toBeGreaterThan(0);
    expect(found.length).toBeLessThanOrEqual(3);
    for (const link of found) {
      expect(link.target).toMatch(/^\/[^/]/);
      expect(titles.get(link.target)).toBe(link.label);
    }
    const paths = answer.sources.map((source) => source.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths.length).toBeGreaterThan(0);
    for (const source of answer.sources) expect(found.map((link) => link.target)).toContain(source.path);
    expect(answer.text).not.toMatch(/<[a-z/]/i);
  });

  it('keeps each excerpt short and cut at sentences', () => {
    const long = corpus.reduce((a, b) => (b.text.length > a.text.length ? b : a));
    expect(long.text.length).toBeGreaterThan(EXCERPT_MAX);
    const cut = excerpt(long.text, []);
    expect(cut.length).toBeLessThanOrEqual(EXCERPT_MAX);
    expect(cut).toMatch(/[.!?]$/);
    for (const question of questions) {
      const blocks = builtInAnswer(question).text.split('\n\n').slice(1);
      for (const block of blocks)
        expect(block.split('\n')[0]?.length ?? 0).toBeLessThanOrEqual(EXCERPT_MAX + 80);
    }
  });

  it('says plainly when it does not know, with the contact page and the address', () => {
    const answer = builtInAnswer('How do I change the oil in my lawnmower?', site);
    expect(answer).toEqual({ text: notKnownTextOf(site), origin: 'built-in', sources: [] });
    expect(answer.text).toMatch(/do not know/);
    expect(answer.text).toContain('[Contact us](/contact-us)');
    expect(answer.text).toContain(site.supportEmail);
    // Without a support address, the contact page alone.
    const alone = builtInAnswer('How do I change the oil in my lawnmower?');
    expect(alone.text).toBe(notKnownText);
    expect(alone.text).toContain('send a message from [Contact us](/contact-us), and a person will answer');
    expect(alone.text).not.toContain('@');
  });

  it('answers greetings and thanks briefly, and a greeting with a question as a question', () => {
    for (const hello of ['Hello', 'hi there', 'Good morning!', 'Hey Titan']) {
      expect(builtInAnswer(hello), hello).toEqual({ text: greetingText, origin: 'small-talk', sources: [] });
    }
    for (const thanks of ['Thanks!', 'thank you very much', 'ok bye']) {
      expect(builtInAnswer(thanks), thanks).toEqual({ text: thanksText, origin: 'small-talk', sources: [] });
    }
    const answer = builtInAnswer('Hi, which databases does DBUI support?');
    expect(answer.sources.map((source) => source.path)).toContain('/products/dbui');
    const titan = builtInAnswer('What is Titan?');
    expect(titan.text).toContain('Titan is the assistant');
    expect(titan.sources.map((source) => source.path)).toContain('/contact-us');
  });

  it('puts an FAQ answer after its question', () => {
    const answer = builtInAnswer('Is this chat answered by a real person?');
    expect(answer.text).toContain('Is this chat answered by a person? No.');
  });
});

describe('introduction', () => {
  it('introduces Titan, what it answers, where answers come from and the limit', () => {
    const answer = introduction();
    expect(answer.origin).toBe('introduction');
    expect(answer.sources).toEqual([]);
    expect(answer.text).toMatch(/Titan/);
    expect(answer.text).toMatch(/pages of this site/);
    expect(answer.text).toContain(`${CHAT_MESSAGE_LIMIT}`);
    expect(answer.text).toMatch(/services/);
    expect(answer.text).toMatch(/DBUI/);
    for (const link of links(answer.text)) expect(link.target).toBe('/contact-us');
    expect(answer.text).not.toContain('@');
    expect(introduction(site).text).toContain(`[Contact us](/contact-us) or ${site.supportEmail}.`);
  });
});
