import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { useLocation } from 'react-router';
import { RedirectPage } from '#web/features/site/redirect-page.tsx';
import { renderPage } from '#web/test/render-page.tsx';

function Address() {
  const { pathname, search } = useLocation();
  return <p>at {`${pathname}${search}`}</p>;
}

describe('/redirect', () => {
  it('goes on to the page in r, with its query', async () => {
    renderPage(<RedirectPage />, {
      at: `/redirect?r=${encodeURIComponent('/db/shop/public/orders?page=2')}`,
      path: '/redirect',
      routes: { '*': <Address /> },
    });
    expect(await screen.findByText('at /db/shop/public/orders?page=2')).toBeTruthy();
  });

  it.each(['', '?r=https%3A%2F%2Fevil.example', '?r=%2F%2Fevil.example', '?r=%2Fno%2Fsuch%2Fpage'])(
    'goes home when r is missing or not one of our pages (%s)',
    async (query) => {
      renderPage(<RedirectPage />, {
        at: `/redirect${query}`,
        path: '/redirect',
        routes: { '*': <Address /> },
      });
      expect(await screen.findByText('at /home')).toBeTruthy();
    },
  );
});
