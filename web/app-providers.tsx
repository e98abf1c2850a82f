import type { ReactNode } from 'react';
import { useState } from 'react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { TOAST_TIMEOUT_MS } from '#common/limits.ts';
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

/** Theme, toasts and server state around the whole app; the router is added by the caller. */
export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  // Mantine puts the page's style nonce on the <style> elements it inserts (web/style-nonce.ts).
  const [nonce] = useState(styleNonce);
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="light"
      {...(nonce ? { getStyleNonce: () => nonce } : {})}
    >
      <Notifications autoClose={TOAST_TIMEOUT_MS} position="top-right" />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
