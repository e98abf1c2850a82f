// Runs before each web test file. The files share a worker, its jsdom window and the libraries' modules (the web
// project runs with isolate: false, docs/decisions/0052-the-fast-test-loop.md), so what one file leaves behind is
// put back here: each file starts from fresh modules of the app and a clean document, as in a browser tab of its own.
import { afterAll, afterEach, vi } from 'vitest';
import { act, cleanup, configure, getConfig, prettyDOM } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { defaultScheduler, notifyManager } from '@tanstack/react-query';

// The app's own modules (web/, common/) evaluate again for this file: their module state (the query client's
// loader, the consent store, the export job, the API client's token source, …) and the module mocks of the file
// (vi.mock, which only reaches the modules imported after it) are this file's alone. Libraries in node_modules stay
// loaded: that is the time saved. Their own state is reset below.
vi.resetModules();

// Pages load lazily and Mantine renders slowly in jsdom: beside a CPU hog a first render took over 20 s (issue 32).
// findBy and waitFor wait for a state; this only ends a wait that would never end.
configure({ asyncUtilTimeout: 60_000, getElementError: elementError });

/**
 * Testing Library's error for a query that found nothing (or too much), whose message prints the whole document.
 * Inside waitFor and findBy a query throws it at every try, 20 times a second, and only the last one is ever read
 * (waitFor reads it when it gives up): there the document is printed when the message is read, not at each try.
 * Anywhere else, and for the last one, the message is the library's own, word for word.
 */
function elementError(message: string | null, container: Element): Error {
  const write = () =>
    [message, `Ignored nodes: comments, ${getConfig().defaultIgnore}\n${prettyDOM(container)}`]
      .filter(Boolean)
      .join('\n\n');
  const retrying = (getConfig() as { _disableExpensiveErrorDiagnostics?: boolean })
    ._disableExpensiveErrorDiagnostics;
  const error = new Error(retrying ? undefined : write());
  error.name = 'TestingLibraryElementError';
  if (retrying) {
    let text: string | undefined;
    Object.defineProperty(error, 'message', {
      configurable: true,
      get: () => (text ??= write()),
      set: (value: string) => {
        text = value;
      },
    });
  }
  return error;
}

/** What the first file found on the shared objects of the window, to put back after each file. */
interface Pristine {
  url: string;
  head: string;
  htmlAttributes: [string, string][];
  properties: Map<object, Map<PropertyKey, PropertyDescriptor>>;
}
const PRISTINE = Symbol.for('dbui.web-test.pristine');
const holder = globalThis as typeof globalThis & { [PRISTINE]?: Pristine };
// The objects tests add to or replace parts of: navigator.clipboard, document.fonts, URL.createObjectURL.
const watched: object[] = [document, navigator, URL];
holder[PRISTINE] ??= {
  url: window.location.href,
  head: document.head.innerHTML,
  htmlAttributes: [...document.documentElement.attributes].map((attribute) => [
    attribute.name,
    attribute.value,
  ]),
  properties: new Map(watched.map((target) => [target, ownProperties(target)])),
};
const pristine = holder[PRISTINE];

afterEach(() => {
  // Unmount what the test rendered (Testing Library's own cleanup, which needs afterEach as a global to register).
  cleanup();
  // Mantine's toasts live in a store of the library's module, outside any rendered tree.
  act(() => {
    notifications.clean();
  });
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  localStorage.clear();
  sessionStorage.clear();
  clearCookies();
});

afterAll(() => {
  document.body.replaceChildren();
  document.head.innerHTML = pristine.head;
  for (const attribute of [...document.documentElement.attributes]) {
    document.documentElement.removeAttribute(attribute.name);
  }
  for (const [name, value] of pristine.htmlAttributes) document.documentElement.setAttribute(name, value);
  window.history.replaceState(null, '', pristine.url);
  for (const [target, properties] of pristine.properties) restoreOwnProperties(target, properties);
  notifyManager.setScheduler(defaultScheduler);
  notifications.cleanQueue();
});

function clearCookies(): void {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
}

function ownProperties(target: object): Map<PropertyKey, PropertyDescriptor> {
  return new Map(
    Reflect.ownKeys(target).flatMap((key) => {
      const descriptor = Object.getOwnPropertyDescriptor(target, key);
      return descriptor ? [[key, descriptor] as const] : [];
    }),
  );
}

/** Removes the own properties a file added to `target` and puts back those it replaced. */
function restoreOwnProperties(target: object, properties: Map<PropertyKey, PropertyDescriptor>): void {
  for (const key of Reflect.ownKeys(target)) {
    const before = properties.get(key);
    const now = Object.getOwnPropertyDescriptor(target, key);
    if (!now?.configurable) continue;
    if (!before) Reflect.deleteProperty(target, key);
    else if (!sameDescriptor(before, now)) Object.defineProperty(target, key, before);
  }
}

function sameDescriptor(a: PropertyDescriptor, b: PropertyDescriptor): boolean {
  return a.value === b.value && a.get === b.get && a.set === b.set && a.writable === b.writable;
}

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
// table, expect AppProviders to provide it at once, as it does when its code is already in. Imported after the
// reset above, so it is the same module the test file imports.
const { loadQueries } = await import('#web/api/queries.tsx');
await loadQueries();
