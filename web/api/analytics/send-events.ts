import type { AnalyticsEventsInput } from '#common/contract/analytics.ts';
import { apiPost, type ApiResult } from '#web/api/client.ts';

/*
 * Every public page's shell imports this (through web/features/consent), and a visitor without consent never sends
 * anything: the contract (and Zod with it) loads with the first event sent (decision 0033).
 */

/** POST /api/analytics/events: page views and the consent choice (1 to 20 a call); the server answers null. */
export async function postAnalyticsEvents(events: AnalyticsEventsInput['events']): Promise<ApiResult<null>> {
  const { analyticsEventsAnswer } = await import('#common/contract/analytics.ts');
  return apiPost('/api/analytics/events', { events }, { schema: analyticsEventsAnswer });
}

/**
 * Sends events and forgets them: analytics must never disturb the page, so a failure (offline, rate limited, a
 * refused event) is dropped without a toast, and this never throws or rejects. Nothing is sent for an empty list;
 * more than the server takes in one call go as several calls.
 * The caller (web/features/consent) sends only with the visitor's consent.
 */
export function sendAnalyticsEvents(events: AnalyticsEventsInput['events']): Promise<void> {
  if (events.length === 0) return Promise.resolve();
  return import('#common/contract/analytics.ts')
    .then(({ ANALYTICS_EVENTS_MAX }) => {
      const calls: Promise<unknown>[] = [];
      for (let start = 0; start < events.length; start += ANALYTICS_EVENTS_MAX) {
        const batch = events.slice(start, start + ANALYTICS_EVENTS_MAX);
        calls.push(Promise.resolve().then(() => postAnalyticsEvents(batch)));
      }
      return Promise.allSettled(calls);
    })
    .then(
      () => undefined,
      () => undefined,
    );
}
