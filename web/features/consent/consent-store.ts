import { createContext, use, useCallback, useSyncExternalStore } from 'react';
import type { AnalyticsEvent } from '#common/contract/analytics.ts';
import { COOKIE_CONSENT_KEY } from '#common/limits.ts';
import { sendAnalyticsEvents } from '#web/api/analytics/send-events.ts';
import {
  browserStorage,
  consentAt,
  readStoredConsent,
  writeStoredConsent,
  type ConsentChoice,
  type ConsentState,
  type ConsentStorage,
} from '#web/features/consent/consent-storage.ts';

/** An analytics event as the web app sends it (POST /api/analytics/events). */
export type ConsentEvent = AnalyticsEvent;

/** Sends events to the site's own analytics endpoint; a failure is the sender's to swallow or report. */
export type SendEvents = (events: ConsentEvent[]) => Promise<unknown>;

export interface ConsentStoreOptions {
  storage?: ConsentStorage | null;
  /** The clock: tests and journeys shift it to see a rejection expire. */
  now?: () => Date;
  send: SendEvents;
}

/** The visitor's choice, shared by the banner, the footer's Cookie settings and the page-view reporter. */
export interface ConsentStore {
  getState(): ConsentState;
  /** True while the visitor has asked to see the banner again (Cookie settings) and has not answered yet. */
  isReopened(): boolean;
  subscribe(listener: () => void): () => void;
  /**
   * Records the choice, stores it and sends the consent event when the choice changes (so accepting, then rejecting
   * in the settings sends both; the same answer again sends nothing), and closes the banner; never throws.
   */
  choose(choice: ConsentChoice, path: string): void;
  /** Shows the banner again so the visitor can change an earlier choice (the footer's Cookie settings). */
  reopen(): void;
  /** Sends a 'PageView' of `path`, only while consent is accepted; never throws. */
  pageView(path: string): void;
}

export function createConsentStore(options: ConsentStoreOptions): ConsentStore {
  const storage = options.storage === undefined ? browserStorage() : options.storage;
  const now = options.now ?? (() => new Date());
  const listeners = new Set<() => void>();
  const read = (): ConsentState => consentAt(readStoredConsent(storage), now());
  let state = read();
  let reopened = false;

  const notify = () => {
    for (const listener of listeners) listener();
  };
  const update = (next: ConsentState) => {
    if (next === state) return;
    state = next;
    notify();
  };

  // Analytics must never break the page: a sender that throws or rejects is ignored.
  const send = (events: ConsentEvent[]) => {
    try {
      options.send(events).catch(() => undefined);
    } catch {
      // ignored, as above
    }
  };

  // A choice made in another tab of the site applies here too.
  const onStorage = (event: StorageEvent) => {
    if (event.key === COOKIE_CONSENT_KEY || event.key === null) update(read());
  };

  return {
    getState: () => state,
    isReopened: () => reopened,
    subscribe(listener) {
      if (listeners.size === 0 && typeof window !== 'undefined')
        window.addEventListener('storage', onStorage);
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && typeof window !== 'undefined') {
          window.removeEventListener('storage', onStorage);
        }
      };
    },
    choose(choice, path) {
      const wasReopened = reopened;
      reopened = false;
      if (state === choice) {
        if (wasReopened) notify();
        return;
      }
      writeStoredConsent(storage, choice, now());
      // The new choice holds before anything else runs: after a change to 'rejected' no page view leaves.
      state = choice;
      notify();
      send([{ name: 'consent', path, value: choice }]);
    },
    reopen() {
      if (reopened) return;
      reopened = true;
      notify();
    },
    pageView(path) {
      if (state === 'accepted') send([{ name: 'PageView', path }]);
    },
  };
}

/** The store in force; null means the app's own (made on first use), tests provide theirs. */
export const ConsentStoreContext = createContext<ConsentStore | null>(null);

let appStore: ConsentStore | null = null;

/** The store in force: the context's, else the app's own, which sends to the site's analytics endpoint. */
export function useConsentStore(): ConsentStore {
  const provided = use(ConsentStoreContext);
  if (provided) return provided;
  appStore ??= createConsentStore({ send: sendAnalyticsEvents });
  return appStore;
}

/** The visitor's consent, whether the banner was asked for again, the two answers and the way to ask again. */
export function useConsent(): {
  choice: ConsentState;
  reopened: boolean;
  choose: (choice: ConsentChoice, path: string) => void;
  reopen: () => void;
} {
  const store = useConsentStore();
  const choice = useSyncExternalStore(store.subscribe, store.getState, () => null);
  const reopened = useSyncExternalStore(store.subscribe, store.isReopened, () => false);
  const choose = useCallback((next: ConsentChoice, path: string) => store.choose(next, path), [store]);
  const reopen = useCallback(() => store.reopen(), [store]);
  return { choice, reopened, choose, reopen };
}
