// The summaries only: the header and footer are on every page, the services' pages are not (decision 0033).
import { serviceSummaries, servicePath } from '#common/content/service-summaries.ts';
import { companyLinks, HOME_PATH, products } from '#common/content/site.ts';
import type { SiteLink } from '#common/content/site.ts';

/** One entry of the header menu (spec 001 §2): a link, or a dropdown of links. */
export type MenuEntry =
  | { kind: 'link'; label: string; to: string }
  | { kind: 'group'; label: string; prefix: string; links: readonly SiteLink[] };

export const serviceLinks: readonly SiteLink[] = serviceSummaries.map((s) => ({
  label: s.name,
  to: servicePath(s.id),
}));

/** Home; Services; Products; About Us; Contact Us, in the spec's order. */
export const menuEntries: readonly MenuEntry[] = [
  { kind: 'link', label: 'Home', to: HOME_PATH },
  { kind: 'group', label: 'Services', prefix: '/services', links: serviceLinks },
  { kind: 'group', label: 'Products', prefix: '/products', links: products },
  ...companyLinks.map((l): MenuEntry => ({ kind: 'link', ...l })),
];

/** Whether the current path belongs to a menu entry, for the active highlight. */
export function isActiveEntry(entry: MenuEntry, pathname: string): boolean {
  const base = entry.kind === 'link' ? entry.to : entry.prefix;
  return pathname === base || pathname.startsWith(`${base}/`);
}
