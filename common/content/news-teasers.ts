/*
 * What the home page's news cards show of each article (title, day, summary) and the helpers they use: news.ts holds
 * the whole articles, which only the news pages need (decision 0033). The same words as news.ts, which
 * news-teasers.test.ts checks.
 */

/** An article as a card shows it (news.ts's NewsArticle adds the rest). */
export interface NewsTeaser {
  /** The article's title; its address is /news/{title} (see newsPath). */
  title: string;
  /** Publication day, YYYY-MM-DD. */
  createdOn: string;
  /** One or two sentences for cards and lists. */
  summary: string;
}

/** In the spec's order, as news.ts. */
export const newsTeasers: readonly NewsTeaser[] = [
  {
    title: 'Streamlining Business Operations',
    createdOn: '2025-02-11',
    summary:
      'Most of the slow work we see in small businesses comes from the same data living in five places. Here is how we bring it back to one database without stopping the business.',
  },
  {
    title: 'Agile Development',
    createdOn: '2025-04-02',
    summary:
      'Agile is easy to say and hard to do when every change touches a production database. This is how we keep two-week cycles honest, schema changes included.',
  },
  {
    title: 'Solving All Your Business Challenges',
    createdOn: '2025-06-17',
    summary:
      'No single team solves every problem, and we would rather say so up front. Here is how we decide what to take on, and how we help when the answer is someone else.',
  },
  {
    title: 'The Future of Software',
    createdOn: '2025-09-09',
    summary:
      'AI assistants are changing how software is written, but not what makes it useful. Our view on where things are going, and what it means for the systems you run today.',
  },
];

/** The address of an article's page: /news/{title}, the title as one percent-encoded segment. */
export function newsPath(article: Pick<NewsTeaser, 'title'>): string {
  return `/news/${encodeURIComponent(article.title)}`;
}

/** A day written for people, e.g. 'September 9, 2025' (the date is read as a calendar day, not a moment). */
export function formatNewsDate(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });
}
