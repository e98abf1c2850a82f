import { z } from 'zod';

/*
 * The site's own analytics (issue 15, spec 001 §6): page views and the consent choice, sent by the web app only with
 * consent (a rejection is sent once, as the consent event itself). The server keeps counts per UTC day and page (the
 * path without its query string) and per day and choice, each visitor counted once per page and once for a choice
 * a day; never the address, the user or a cookie (decision 0043).
 */

export const ANALYTICS_EVENTS_MAX = 20;
export const ANALYTICS_PATH_MAX = 500;
export const ANALYTICS_DAYS_MAX = 365;
export const ANALYTICS_DAYS_DEFAULT = 30;
/** How many pages the report lists, most viewed first. */
export const ANALYTICS_TOP_PAGES = 20;
/** The report's name for the views of the pages counted together once a day's limit of pages was reached. Not a
 * path (it does not start with /), so no page is ever called so. */
export const ANALYTICS_OTHER_PAGES = '(other pages)';

export const analyticsPath = z
  .string({ error: 'path must be the page path, such as /services.' })
  .startsWith('/', 'path must start with /, such as /services.')
  .max(ANALYTICS_PATH_MAX, `path can be at most ${ANALYTICS_PATH_MAX} characters.`)
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001f\u007f\s]*$/u, 'path cannot contain spaces or control characters.')
  .describe('The page path, starting with /; a query string or fragment is dropped before storing');

export const consentValue = z.enum(['accepted', 'rejected'], {
  error: "value must be 'accepted' or 'rejected'.",
});
export type ConsentValue = z.infer<typeof consentValue>;

export const analyticsEvent = z.discriminatedUnion(
  'name',
  [
    z.object({
      name: z.literal('PageView'),
      path: analyticsPath,
      value: z.undefined({ error: 'A PageView event has no value.' }).optional(),
    }),
    z.object({ name: z.literal('consent'), path: analyticsPath, value: consentValue }),
  ],
  { error: "name must be 'PageView' or 'consent'." },
);
export type AnalyticsEvent = z.infer<typeof analyticsEvent>;

/** POST /api/analytics/events: anyone, no session, no cookie; rate limited per address; answers null. */
export const analyticsEventsInput = z.object({
  events: z
    .array(analyticsEvent, { error: 'events must be a list of events.' })
    .min(1, 'events must hold at least one event.')
    .max(ANALYTICS_EVENTS_MAX, `events can hold at most ${ANALYTICS_EVENTS_MAX} events a call.`),
});
export type AnalyticsEventsInput = z.infer<typeof analyticsEventsInput>;

/** GET /api/admin/analytics?days=: the last `days` UTC days, today included. */
/** The answer to POST /api/analytics/events: nothing. */
export const analyticsEventsAnswer = z.null();

export const analyticsQuery = z.object({
  days: z.coerce
    .number({ error: `days must be a whole number from 1 to ${ANALYTICS_DAYS_MAX}.` })
    .int(`days must be a whole number from 1 to ${ANALYTICS_DAYS_MAX}.`)
    .min(1, `days must be a whole number from 1 to ${ANALYTICS_DAYS_MAX}.`)
    .max(ANALYTICS_DAYS_MAX, `days must be a whole number from 1 to ${ANALYTICS_DAYS_MAX}.`)
    .default(ANALYTICS_DAYS_DEFAULT),
});
export type AnalyticsQuery = z.input<typeof analyticsQuery>;

const count = z.number().int().min(0);

export const analyticsReport = z.object({
  pageViewsByDay: z
    .array(z.object({ day: z.string().describe('YYYY-MM-DD (UTC)'), views: count }))
    .describe(
      'Every day of the range, oldest first, days without views as 0; a visitor counts once per page a day',
    ),
  pageViewsByPage: z
    .array(z.object({ path: z.string(), views: count }))
    .describe(
      `The ${ANALYTICS_TOP_PAGES} most viewed pages of the range, most viewed first (ties by path); ` +
        `'${ANALYTICS_OTHER_PAGES}' counts the pages of days that had more new pages than the day's limit`,
    ),
  consent: z
    .object({ accepted: count, rejected: count })
    .describe('Consent choices made within the range, a visitor’s first choice of a day'),
});
export type AnalyticsReport = z.infer<typeof analyticsReport>;
