/** The analytics page's sentences (issue 15). */
export const analyticsTexts = {
  title: 'Analytics',
  range: 'Period',
  rangeOption: (days: number) => `${days} days`,
  loading: 'Loading the analytics…',
  failed: 'Failed to load the analytics.',
  retry: 'Retry',
  viewsByDay: 'Page views per day',
  viewsByPage: 'Most viewed pages',
  consent: 'Consent choices',
  page: 'Page',
  views: 'Views',
  share: 'Share',
  accepted: 'Accepted',
  rejected: 'Rejected',
  totalViews: (views: number, days: number) =>
    `${views.toLocaleString('en')} page ${views === 1 ? 'view' : 'views'} in the last ${days} days (UTC).`,
  busiest: (day: string, views: number) =>
    `The busiest day was ${day}, with ${views.toLocaleString('en')} ${views === 1 ? 'view' : 'views'}.`,
  chartLabel: (days: number) => `Bar chart of page views on each of the last ${days} days`,
  consentChart: 'Donut chart of consent choices',
  choice: (count: number, percent: number) => `${count.toLocaleString('en')} (${percent}%)`,
  consentTotal: (total: number) =>
    `${total.toLocaleString('en')} ${total === 1 ? 'visitor' : 'visitors'} answered the cookie banner in this period.`,
  topPagesNote: (shown: number) => `The ${shown} most viewed pages of the period.`,
  noViews: (days: number) => `No page views were recorded in the last ${days} days.`,
  noConsent: (days: number) => `No one answered the cookie banner in the last ${days} days.`,
  emptyTitle: (days: number) => `Nothing recorded in the last ${days} days`,
  emptyBody:
    'Page views are counted only for visitors who accept analytics in the cookie banner, and a choice is counted ' +
    'once, when it is made. Nothing has come in for this period yet; try a longer one.',
  privacy:
    'Counted on this server only: the page, the day and the consent choice, each visitor once per page and choice ' +
    'a day. No IP address, account or cookie is kept.',
  otherPages: 'Other pages (over the day’s limit of new pages)',
} as const;
