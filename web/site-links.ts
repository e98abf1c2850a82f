import { siteLinkMetaNames, type SiteLinks } from '#common/content/site.ts';

/*
 * The site's outside addresses (the footer's social, code and shop links, the home page's repository link, Titan's
 * support address): the operator's settings, which the server writes into the page as <meta> tags
 * (docs/decisions/0046-site-links-as-settings.md). Read from the page the app started in, so the first render has
 * them: no call, nothing to wait for. A tag that is missing (unset, or Vite's dev server) is null, and whatever
 * would show it is left out.
 */

let read: SiteLinks | null = null;

/** The site's outside addresses that are set (read once from the page's head). */
export function siteLinks(): SiteLinks {
  read ??= {
    mastodon: webAddress(meta(siteLinkMetaNames.mastodon)),
    sourceCode: webAddress(meta(siteLinkMetaNames.sourceCode)),
    shop: webAddress(meta(siteLinkMetaNames.shop)),
    supportEmail: meta(siteLinkMetaNames.supportEmail),
  };
  return read;
}

/** Reads the page's tags again (tests that change them). */
export function forgetSiteLinks(): void {
  read = null;
}

function meta(name: string): string | null {
  if (typeof document === 'undefined') return null;
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content.trim() || null;
}

/** Only an http(s) address becomes a link (the server checks the settings; this keeps any other scheme out). */
function webAddress(value: string | null): string | null {
  return value !== null && /^https?:\/\//i.test(value) ? value : null;
}
