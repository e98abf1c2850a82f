import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { AppRoutes } from '#web/routes.tsx';
import { about } from '#common/content/about.ts';
import { privacyPolicy, termsOfUse } from '#common/content/legal.ts';
import { renderPage } from '#web/test/render-page.tsx';

describe('about and legal pages', () => {
  it('/about-us has a Resume button to /resume', async () => {
    renderPage(<AppRoutes />, { at: '/about-us' });
    expect(await screen.findByRole('heading', { level: 1, name: about.heading })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Resume' }).getAttribute('href')).toBe('/resume');
  });

  it.each([
    ['/privacy-policy', privacyPolicy],
    ['/terms-of-use', termsOfUse],
  ] as const)('%s is effective January 1st 2024 and promises 30 days notice', async (path, document) => {
    renderPage(<AppRoutes />, { at: path });
    expect(await screen.findByRole('heading', { level: 1, name: document.title })).toBeTruthy();
    expect(screen.getByText('Effective January 1st 2024')).toBeTruthy();
    expect(screen.getByRole('main').textContent).toMatch(/at least 30 days/);
    const contact = within(screen.getByRole('main')).getAllByRole('link', { name: 'Contact Us page' });
    expect(contact[0]?.getAttribute('href')).toBe('/contact-us');
  });

  it('the privacy policy names the consent key and says analytics keep no IP address', () => {
    const text = JSON.stringify(privacyPolicy);
    expect(text).toContain('accept-cookies-v1');
    expect(text).toMatch(/no network \(IP\) address/);
  });

  it('the terms link to the privacy policy', async () => {
    renderPage(<AppRoutes />, { at: '/terms-of-use' });
    const main = await screen.findByRole('main');
    const link = await within(main).findByRole('link', { name: 'Privacy Policy' });
    expect(link.getAttribute('href')).toBe('/privacy-policy');
  });

  it('the terms name a US state as governing law', () => {
    expect(JSON.stringify(termsOfUse)).toMatch(/laws of the State of \w+, United States/);
  });
});
