/*
 * The six services' names and summaries, for what every page or the home page shows (the header menu, the footer,
 * the home cards): services.ts holds each service's whole page, which only /services/{service} needs (decision
 * 0033). The same words as services.ts, which service-summaries.test.ts checks.
 */

export type ServiceId = 'database' | 'cloud' | 'custom-apps' | 'ai' | 'web-mobile' | 'consult';

/** A service as the menu, the footer and the home cards show it (services.ts's Service adds its page). */
export interface ServiceSummary {
  id: ServiceId;
  name: string;
  /** One line for the home page's cards. */
  summary: string;
}

/** The summaries, in the spec's order. */
export const serviceSummaries: readonly ServiceSummary[] = [
  {
    id: 'database',
    name: 'Database Management',
    summary: 'Design, tuning and day-to-day care of PostgreSQL, MySQL, SQLite and SQL Server databases.',
  },
  {
    id: 'cloud',
    name: 'Cloud Technology',
    summary: 'Move workloads to the cloud and run them reliably, securely and at a sensible cost.',
  },
  {
    id: 'custom-apps',
    name: 'Custom Applications',
    summary: 'Software built around the way your business works, not the other way round.',
  },
  {
    id: 'ai',
    name: 'AI Connectivity',
    summary: 'Connect language models to your own data and tools, with the access rules you already have.',
  },
  {
    id: 'web-mobile',
    name: 'Web & Mobile Apps',
    summary: 'Fast, accessible sites and apps that work as well on a phone as on a desktop.',
  },
  {
    id: 'consult',
    name: 'Get a Consult',
    summary: 'Talk through a problem with an engineer and leave with a plan you can act on.',
  },
];

/** The address of a service's page. */
export function servicePath(id: ServiceId): string {
  return `/services/${id}`;
}
