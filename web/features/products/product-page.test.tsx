import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { shellMessages } from '#common/messages.ts';
import { AppRoutes } from '#web/routes.tsx';
import { productFor } from '#common/content/products.ts';
import { renderPage } from '#web/test/render-page.tsx';

describe('the product page', () => {
  it('selects DBUI for an unknown or missing id', () => {
    expect(productFor('dbui').id).toBe('dbui');
    expect(productFor('nope').id).toBe('dbui');
    expect(productFor(undefined).id).toBe('dbui');
  });

  it.each(['/products/dbui', '/products', '/products/no-such-product'])(
    '%s shows PRODUCTS COMING SOON for DBUI',
    async (path) => {
      renderPage(<AppRoutes />, { at: path });
      expect(
        await screen.findByRole('heading', { level: 1, name: shellMessages.productsComingSoon }),
      ).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Request a demo' }).getAttribute('href')).toBe('/contact-us');
    },
  );
});
