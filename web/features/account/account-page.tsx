import { NotFoundPage } from '#web/features/site/not-found-page.tsx';

/** /account — placeholder until the screen is built (issue 12); shows the 404 page meanwhile. */
export function AccountPage() {
  return <NotFoundPage />;
}
