import { QueryClient } from '@tanstack/react-query';

/** A query client for the app: the API client reports failures in its envelope, so one try is enough. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}
