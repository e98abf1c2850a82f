import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProviders } from '#web/app-providers.tsx';
import { NavigationGuardProvider } from '#web/forms/navigation-guard.tsx';
import { AppRoutes } from '#web/routes.tsx';

/**
 * The whole web app: providers, the browser's address as a data router (so pending changes can hold a navigation,
 * web/forms/navigation-guard.tsx), and the route table, kept as one descendant <Routes> in web/routes.tsx.
 */
export function App() {
  const [router] = useState(() =>
    createBrowserRouter([
      {
        path: '*',
        element: (
          <NavigationGuardProvider>
            <AppRoutes />
          </NavigationGuardProvider>
        ),
      },
    ]),
  );
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
