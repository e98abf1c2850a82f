import type { ReactNode } from 'react';
import { useState } from 'react';
import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { TOAST_FADE_MS, TOAST_TIMEOUT_MS } from '#common/limits.ts';
import { styleNonce } from '#web/style-nonce.ts';
import { cssVariablesResolver, theme } from '#web/ui/theme.ts';

/** A query client for the app: the API client reports failures in its envelope, so one try is enough. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

/** Where the person's light or dark choice is kept; without one the system's preference is followed. */
export const COLOR_SCHEME_STORAGE_KEY = 'dbui-color-scheme';
const colorSchemeManager = localStorageColorSchemeManager({ key: COLOR_SCHEME_STORAGE_KEY });

/** Theme, toasts and server state around the whole app; the router is added by the caller. */
export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
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
      {/* Spec 000/001 §9: a toast stays 3000 ms and fades over 500 ms. */}
      <Notifications autoClose={TOAST_TIMEOUT_MS} transitionDuration={TOAST_FADE_MS} position="top-right" />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
