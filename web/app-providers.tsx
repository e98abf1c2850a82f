import type { ReactNode } from 'react';
import { useState } from 'react';
import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { QueriesRoot } from '#web/api/queries.tsx';
import { styleNonce } from '#web/style-nonce.ts';
import { cssVariablesResolver, theme } from '#web/ui/theme.ts';
import { Toasts } from '#web/ui/toasts.tsx';

/** Where the person's light or dark choice is kept; without one the system's preference is followed. */
export const COLOR_SCHEME_STORAGE_KEY = 'dbui-color-scheme';
const colorSchemeManager = localStorageColorSchemeManager({ key: COLOR_SCHEME_STORAGE_KEY });

/** Theme, toasts and server state around the whole app; the router is added by the caller. */
export function AppProviders({ children }: { children: ReactNode }) {
  // Mantine puts the page's style nonce on the <style> elements it inserts (web/style-nonce.ts).
  const [nonce] = useState(styleNonce);
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="auto"
      {...(nonce ? { getStyleNonce: () => nonce } : {})}
    >
      <Toasts />
      {/* Server state: the client loads with the first page that asks the API (web/api/queries.tsx). */}
      <QueriesRoot>{children}</QueriesRoot>
    </MantineProvider>
  );
}
