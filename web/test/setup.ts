// Stand-ins for browser APIs that jsdom lacks and Mantine uses.
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { loadQueries } from '#web/api/queries.tsx';

// Pages load lazily and Mantine renders slowly in jsdom: beside a CPU hog a first render took over 20 s (issue 32).
// findBy and waitFor wait for a state; this only ends a wait that would never end.
configure({ asyncUtilTimeout: 60_000 });

afterEach(() => {
  cleanup();
});

if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string): MediaQueryList => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}

class ResizeObserverStandIn implements ResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
if (!('ResizeObserver' in window)) {
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStandIn });
}

// jsdom logs "not implemented" for scrolling; the shell scrolls to the top on every route change.
window.scrollTo = () => undefined;
Element.prototype.scrollIntoView = () => undefined;

// TanStack Query's client loads lazily in the app (web/api/queries.tsx); components tested alone, outside the route
// table, expect AppProviders to provide it at once, as it does when its code is already in.
await loadQueries();
