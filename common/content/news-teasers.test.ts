import { describe, expect, it } from 'vitest';
import { newsArticles } from '#common/content/news.ts';
import { newsTeasers } from '#common/content/news-teasers.ts';

describe('the news teasers', () => {
  it('are the articles of news.ts (title, day and summary), word for word and in order', () => {
    expect(newsTeasers).toEqual(
      newsArticles.map(({ title, createdOn, summary }) => ({ title, createdOn, summary })),
    );
  });
});
