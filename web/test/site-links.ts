import { siteLinkMetaNames, type SiteLinks } from '#common/content/site.ts';
import { forgetSiteLinks } from '#web/site-links.ts';

/** Puts the site's outside addresses in the page's head as the server writes them (only those given). */
export function setSiteLinks(links: Partial<SiteLinks>): void {
  clearSiteLinks();
  for (const [key, value] of Object.entries(links) as [keyof SiteLinks, string | null][]) {
    if (!value) continue;
    const tag = document.createElement('meta');
    tag.name = siteLinkMetaNames[key];
    tag.content = value;
    document.head.append(tag);
  }
  forgetSiteLinks();
}

/** Takes them out again (a site where none is set). */
export function clearSiteLinks(): void {
  for (const name of Object.values(siteLinkMetaNames)) {
    document.head.querySelector(`meta[name="${name}"]`)?.remove();
  }
  forgetSiteLinks();
}
