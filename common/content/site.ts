/** The public site's fixed texts and links that are not page content: products, legal, copyright. */

export interface SiteLink {
  label: string;
  to: string;
}

/** Products menu (spec 001 §2): only DBUI for now. */
export const products: readonly SiteLink[] = [{ label: 'DBUI', to: '/products/dbui' }];

export const companyLinks: readonly SiteLink[] = [
  { label: 'About Us', to: '/about-us' },
  { label: 'Contact Us', to: '/contact-us' },
];

export const legalLinks: readonly SiteLink[] = [
  { label: 'Terms of Use', to: '/terms-of-use' },
  { label: 'Privacy Policy', to: '/privacy-policy' },
];

/** An address outside the site (opened in a new tab). */
export interface ExternalLink {
  label: string;
  href: string;
}

/**
 * The site's addresses outside it: spec 001 §2's footer links (social, code, shop) and the home page's repository
 * link, and the support address Titan names. They are the operator's settings (server/config.ts: MASTODON_URL,
 * SOURCE_CODE_URL, SHOP_URL, SUPPORT_EMAIL), given to the web app in the page's HTML (siteLinkMetaNames); null
 * while unset, and whatever would show one is left out.
 */
export interface SiteLinks {
  mastodon: string | null;
  sourceCode: string | null;
  shop: string | null;
  supportEmail: string | null;
}

/** A site with none of its outside addresses set. */
export const noSiteLinks: SiteLinks = { mastodon: null, sourceCode: null, shop: null, supportEmail: null };

/** The <meta name> that carries each address in the page's HTML (server/app.ts writes them, web/site-links.ts
 * reads them). */
export const siteLinkMetaNames: Readonly<Record<keyof SiteLinks, string>> = {
  mastodon: 'dbui-link-mastodon',
  sourceCode: 'dbui-link-source-code',
  shop: 'dbui-link-shop',
  supportEmail: 'dbui-support-email',
};

/** Spec 001 §2: the footer's outside links in its order (social, code, shop), only those that are set. */
export function externalLinksOf(links: SiteLinks): ExternalLink[] {
  const all = [
    { label: 'Mastodon', href: links.mastodon },
    { label: 'Source code', href: links.sourceCode },
    { label: 'Shop', href: links.shop },
  ];
  return all.flatMap(({ label, href }) => (href ? [{ label, href }] : []));
}

/** Spec 001 §9: copyright year 2025. */
export const COPYRIGHT_YEAR = 2025;

export const LOGIN_PATH = '/account/login';
export const HOME_PATH = '/home';
