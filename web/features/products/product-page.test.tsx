import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { shellMessages } from '#common/messages.ts';
import { AppProviders } from '#web/app-providers.tsx';
import { AppRoutes } from '#web/routes.tsx';
import { productFor } from '#common/content/products.ts';

function renderAt(path: string) {
  return render(
    <AppProviders>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
      </MemoryRouter>
    </AppProviders>,
  );
}

describe('the product page', () => {
  it('selects DBUI for an unknown or missing id', () => {
    expect(productFor('dbui').id).toBe('dbui');
    expect(productFor('nope').id).toBe('dbui');
    expect(productFor(undefined).id).toBe('dbui');
  });

  it.each(['/products/dbui', '/products', '/products/no-such-product'])(
    '%s shows PRODUCTS COMING SOON for DBUI',
    async (path) => {
      renderAt(path);
      expect(
        await screen.findByRole('heading', { level: 1, name: shellMessages.productsComingSoon }),
      ).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Request a demo' }).getAttribute('href')).toBe('/contact-us');
    },
  );
});
