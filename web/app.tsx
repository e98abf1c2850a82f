import { BrowserRouter } from 'react-router';
import { AppProviders } from '#web/app-providers.tsx';
import { AppRoutes } from '#web/routes.tsx';

/** The whole web app: providers, the browser's address as the router, and the route table. */
export function App() {
  return (
    <AppProviders>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}
