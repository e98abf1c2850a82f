import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { resume, splitInterests } from '#common/content/resume.ts';
import { AppRoutes } from '#web/routes.tsx';
import { renderPage } from '#web/test/render-page.tsx';

describe('splitInterests (spec 001 §9)', () => {
  it('splits in halves, all ten shown (the original dropped the last one)', () => {
    const ten = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'];
    expect(splitInterests(ten)).toEqual({
      first: ['1', '2', '3', '4', '5'],
      second: ['6', '7', '8', '9', '10'],
    });
    expect(splitInterests(['1', '2', '3', '4', '5'])).toEqual({ first: ['1', '2', '3'], second: ['4', '5'] });
    expect(splitInterests(['1'])).toEqual({ first: ['1'], second: [] });
    expect(splitInterests([])).toEqual({ first: [], second: [] });
  });
});

// Rendering the whole app and loading pages lazily is slow on a busy machine; getByRole over a long page too.
describe('the resume page', () => {
  it('has the counts of spec 001 §2', () => {
    expect(resume.works).toHaveLength(4);
    expect(resume.educations).toHaveLength(3);
    expect(resume.skills).toHaveLength(5);
    expect(resume.softSkills).toHaveLength(9);
    expect(resume.achievements).toHaveLength(7);
    expect(resume.interests).toHaveLength(10);
  });

  it('shows a loading indicator first, then the header, summary and cards', async () => {
    renderPage(<AppRoutes />, { at: '/resume' });
    // The loading state (the route's own loader or the resume's) comes before the resume.
    expect(screen.getByRole('status')).toBeTruthy();
    await screen.findByRole('heading', { level: 1, name: resume.name });
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByRole('link', { name: resume.email }).getAttribute('href')).toBe(
      `mailto:${resume.email}`,
    );
    expect(screen.getByText(resume.phone)).toBeTruthy();
    expect(screen.getByText(resume.location)).toBeTruthy();
    expect(screen.getByRole('link', { name: resume.link.label })).toBeTruthy();
    expect(screen.getByText(resume.summary)).toBeTruthy();
    for (const name of [
      'Summary',
      'Work History',
      'Education',
      'Skills',
      'Soft Skills',
      'Achievements',
      'Interests',
    ]) {
      expect(screen.getByRole('heading', { level: 2, name })).toBeTruthy();
    }
    for (const work of resume.works)
      expect(screen.getByRole('heading', { level: 3, name: work.position })).toBeTruthy();
    for (const group of resume.skills) {
      expect(screen.getByRole('heading', { level: 3, name: group.heading })).toBeTruthy();
    }
  });

  it('shows the interests in two columns as the split says', async () => {
    renderPage(<AppRoutes />, { at: '/resume' });
    await screen.findByRole('heading', { level: 1, name: resume.name });
    const { first, second } = splitInterests(resume.interests);
    const items = (id: string) =>
      within(screen.getByTestId(id))
        .getAllByRole('listitem')
        .map((item) => item.textContent);
    expect(items('interests-column-1')).toEqual(first);
    expect(items('interests-column-2')).toEqual(second);
  });
});
