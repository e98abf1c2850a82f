// Stand-ins for browser APIs that jsdom lacks and Mantine uses.
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { loadQueries } from '#web/api/queries.tsx';

// Pages load lazily: the first import of a page can take more than the default second on a busy machine.
configure({ asyncUtilTimeout: 5000 });

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
