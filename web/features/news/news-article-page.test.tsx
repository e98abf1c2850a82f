import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import {
  findNewsArticle,
  newsArticles,
  newsPath,
  otherNewsArticles,
  splitNewsContent,
} from '#common/content/news.ts';
import { AppRoutes } from '#web/routes.tsx';
import { renderPage } from '#web/test/render-page.tsx';

const titles = newsArticles.map((article) => article.title);

describe('the news content', () => {
  it('has the four articles of spec 001 §2, in order, each with at least four paragraphs', () => {
    expect(titles).toEqual([
      'Streamlining Business Operations',
      'Agile Development',
      'Solving All Your Business Challenges',
      'The Future of Software',
    ]);
    for (const article of newsArticles) expect(article.content.length).toBeGreaterThanOrEqual(4);
    expect(newsPath(findNewsArticle('The Future of Software'))).toBe('/news/The%20Future%20of%20Software');
  });

  it('splits the body at the last three paragraphs (spec 001 §9)', () => {
    expect(splitNewsContent(['a', 'b', 'c', 'd', 'e'])).toEqual({
      first: ['a', 'b'],
      second: ['c', 'd', 'e'],
    });
    expect(splitNewsContent(['a', 'b', 'c'])).toEqual({ first: [], second: ['a', 'b', 'c'] });
    expect(splitNewsContent(['a'])).toEqual({ first: [], second: ['a'] });
  });

  it('lists three other articles, never the article itself', () => {
    for (const article of newsArticles) {
      const others = otherNewsArticles(article).map((other) => other.title);
      expect(others).toHaveLength(3);
      expect(others).not.toContain(article.title);
    }
  });
});

// Rendering the whole app and loading pages lazily is slow on a busy machine.
describe('the news pages', () => {
  it('/news shows the four articles as cards with Read More links', async () => {
    renderPage(<AppRoutes />, { at: '/news' });
    await screen.findByRole('heading', { level: 1, name: 'News' });
    for (const article of newsArticles) {
      expect(screen.getByRole('heading', { level: 2, name: article.title })).toBeTruthy();
      expect(screen.getByRole('link', { name: `Read More: ${article.title}` }).getAttribute('href')).toBe(
        newsPath(article),
      );
    }
  });

  it('shows the article named in the address, its last three paragraphs in column 2', async () => {
    const article = findNewsArticle('The Future of Software');
    renderPage(<AppRoutes />, { at: newsPath(article) });
    await screen.findByRole('heading', { level: 1, name: article.title });
    const second = screen.getByTestId('news-column-2');
    const first = screen.getByTestId('news-column-1');
    expect(
      within(second)
        .getAllByText(/./)
        .map((p) => p.textContent),
    ).toEqual(article.content.slice(-3));
    expect(
      within(first)
        .getAllByText(/./)
        .map((p) => p.textContent),
    ).toEqual(article.content.slice(0, -3));
  });

  it('lists the three other articles under Want to keep Reading?', async () => {
    const article = findNewsArticle('Agile Development');
    renderPage(<AppRoutes />, { at: newsPath(article) });
    const heading = await screen.findByRole('heading', { level: 2, name: 'Want to keep Reading?' });
    const section = heading.closest('section');
    expect(section).not.toBeNull();
    const others = within(section as HTMLElement)
      .getAllByRole('heading', { level: 3 })
      .map((h) => h.textContent);
    expect(others).toEqual(titles.filter((title) => title !== article.title));
  });

  it.each(['/news/No%20Such%20Article', '/news/the%20future%20of%20software'])(
    'selects the first article for an unknown title (%s)',
    async (path) => {
      renderPage(<AppRoutes />, { at: path });
      await screen.findByRole('heading', { level: 1, name: titles[0] });
      const section = screen.getByRole('heading', { name: 'Want to keep Reading?' }).closest('section');
      expect(within(section as HTMLElement).queryByRole('heading', { name: titles[0] })).toBeNull();
    },
  );
});
