import {
  createContext,
  lazy,
  use,
  useEffect,
  useState,
  useSyncExternalStore,
  type ComponentType,
  type ReactNode,
} from 'react';
import { QueryClientContext, QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type * as QueryClientModule from '#web/api/query-client.ts';

/*
 * TanStack Query's client, loaded with the first part of the app that asks the API (decision 0033): the home page
 * asks nothing, and the client's code is 8 KB of a first visit. AppProviders holds one client for the whole app and
 * provides it around everything as soon as its code is in (from the first render where it already is: the component
 * tests load it first). What loads the code is a lazily loaded page or popup that uses queries (withQueries): it
 * waits for the code with its own, and renders inside a provider of that same client. A component that asks the API
 * and is not loaded that way must come under withQueries (or WithQueries), or it finds no client on a first visit.
 */

let loaded: typeof QueryClientModule | null = null;
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Loads the query client's code (once); resolves when it is in. */
export function loadQueries(): Promise<void> {
  return (loading ??= import('#web/api/query-client.ts').then(
    (module) => {
      loaded = module;
      for (const listener of [...listeners]) listener();
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  ));
}

/** Whether the query client's code is in. */
export const queriesLoaded = (): boolean => loaded !== null;

/** The app's one query client, made when first asked for (its code must be in). */
export interface QueryClientHolder {
  get(): QueryClient;
  /** The client if it was made; null when nothing used queries yet. */
  peek(): QueryClient | null;
}

const QueryClientHolderContext = createContext<QueryClientHolder | null>(null);

/** The app's query client holder (null outside AppProviders). */
export function useQueryClientHolder(): QueryClientHolder | null {
  return use(QueryClientHolderContext);
}

/** Holds the app's query client and provides it once its code is in (the tree keeps its shape meanwhile). */
export function QueriesRoot({ children }: { children: ReactNode }) {
  const [holder] = useState<QueryClientHolder>(() => {
    let client: QueryClient | null = null;
    return {
      get: () => {
        if (!loaded) throw new Error('The query client was asked for before its code loaded (loadQueries).');
        return (client ??= loaded.createQueryClient());
      },
      peek: () => client,
    };
  });
  const ready = useSyncExternalStore(subscribe, queriesLoaded, queriesLoaded);
  const client = ready ? holder.get() : undefined;
  // What QueryClientProvider does besides providing: the client follows focus and the network while mounted.
  useEffect(() => {
    if (!client) return;
    client.mount();
    return () => client.unmount();
  }, [client]);
  return (
    <QueryClientHolderContext value={holder}>
      <QueryClientContext value={client}>{children}</QueryClientContext>
    </QueryClientHolderContext>
  );
}

/** Provides the app's query client to `children`; suspends until its code is in. */
export function WithQueries({ children }: { children: ReactNode }) {
  const holder = useQueryClientHolder();
  if (!queriesLoaded()) use(loadQueries());
  if (!holder) throw new Error('WithQueries needs AppProviders (web/app-providers.tsx) around it.');
  return <QueryClientProvider client={holder.get()}>{children}</QueryClientProvider>;
}

/** lazy() for a page that uses queries: loads its code and the query client's together, then provides it. */
export function withQueries(load: () => Promise<{ default: () => ReactNode }>): ComponentType {
  return withQueriesOf<object>(load);
}

/** withQueries for a component with props (`Props`, given explicitly). */
export function withQueriesOf<Props extends object>(
  load: () => Promise<{ default: ComponentType<Props> }>,
): ComponentType<Props> {
  return lazy(() =>
    Promise.all([load(), loadQueries()]).then(([{ default: Component }]) => ({
      default: (props: Props) => (
        <WithQueries>
          <Component {...props} />
        </WithQueries>
      ),
    })),
  );
}
