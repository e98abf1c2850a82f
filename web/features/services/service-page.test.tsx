import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { AppRoutes } from '#web/routes.tsx';
import { serviceDetails, serviceFor } from '#common/content/services.ts';
import { renderPage } from '#web/test/render-page.tsx';

const first = serviceDetails[0]!;

describe('the services content', () => {
  it('has six services, each with a heading, two descriptions and six offers', () => {
    expect(serviceDetails.map((s) => s.id)).toEqual([
      'database',
      'cloud',
      'custom-apps',
      'ai',
      'web-mobile',
      'consult',
    ]);
    for (const service of serviceDetails) {
      expect(service.heading).not.toBe('');
      expect(service.description).not.toBe(service.description2);
      expect(service.offers).toHaveLength(6);
    }
  });

  it('selects the first service for an unknown or missing id', () => {
    expect(serviceFor('cloud').id).toBe('cloud');
    expect(serviceFor('no-such-service')).toBe(first);
    expect(serviceFor(undefined)).toBe(first);
    expect(serviceFor('')).toBe(first);
  });
});

describe('the service page', () => {
  it('shows the service of the address: its heading, both descriptions and six offers', async () => {
    renderPage(<AppRoutes />, { at: '/services/ai' });
    const ai = serviceFor('ai');
    expect(await screen.findByRole('heading', { level: 1, name: ai.heading })).toBeTruthy();
    const main = screen.getByRole('main');
    expect(within(main).getByText(ai.description)).toBeTruthy();
    expect(within(main).getByText(ai.description2)).toBeTruthy();
    const offers = within(main).getByRole('region', { name: 'What we offer' });
    expect(
      within(offers)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(ai.offers.map((offer) => offer.title));
  });

  it("shows each service's own picture, named by its alt text", async () => {
    for (const service of serviceDetails) {
      expect(service.image.alt.length).toBeGreaterThan(20);
      const view = renderPage(<AppRoutes />, { at: `/services/${service.id}` });
      await screen.findByRole('heading', { level: 1, name: service.heading });
      const picture = screen.getByRole('img', { name: service.image.alt });
      expect(picture.tagName.toLowerCase()).toBe('svg');
      expect(picture.querySelectorAll('path, rect, circle, ellipse').length).toBeGreaterThan(5);
      view.unmount();
    }
    expect(new Set(serviceDetails.map((s) => s.image.alt)).size).toBe(6);
  });

  it('shows the first service for an unknown id', async () => {
    renderPage(<AppRoutes />, { at: '/services/no-such-service' });
    expect(await screen.findByRole('heading', { level: 1, name: first.heading })).toBeTruthy();
  });

  it('shows the first service on /services', async () => {
    renderPage(<AppRoutes />, { at: '/services' });
    expect(await screen.findByRole('heading', { level: 1, name: first.heading })).toBeTruthy();
  });
});
