import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { RedirectPage } from '#web/features/site/redirect-page.tsx';

function Address() {
  const { pathname, search } = useLocation();
  return <p>at {`${pathname}${search}`}</p>;
}

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/redirect" element={<RedirectPage />} />
        <Route path="*" element={<Address />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('/redirect', () => {
  it('goes on to the page in r, with its query', async () => {
    renderAt(`/redirect?r=${encodeURIComponent('/db/shop/public/orders?page=2')}`);
    expect(await screen.findByText('at /db/shop/public/orders?page=2')).toBeTruthy();
  });

  it.each(['', '?r=https%3A%2F%2Fevil.example', '?r=%2F%2Fevil.example', '?r=%2Fno%2Fsuch%2Fpage'])(
    'goes home when r is missing or not one of our pages (%s)',
    async (query) => {
      renderAt(`/redirect${query}`);
      expect(await screen.findByText('at /home')).toBeTruthy();
    },
  );
});
