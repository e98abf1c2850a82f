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
 * Spec 001 §2: the footer's external social, code and shop links, and the home page's repository link. The company
 * has no published addresses yet: these use its reserved .example domain until they are set here, in one place.
 */
export const externalLinks = {
  code: { label: 'Source code', href: 'https://code.dbui.example/dbui' },
  shop: { label: 'Shop', href: 'https://shop.dbui.example' },
  social: [{ label: 'Mastodon', href: 'https://social.dbui.example/@dbui' }],
} as const satisfies { code: ExternalLink; shop: ExternalLink; social: readonly ExternalLink[] };

/** Where visitors reach the team by mail (Titan's canned reply at its message limit names it). */
export const SUPPORT_EMAIL = 'support@dbui.example';

/** Spec 001 §9: copyright year 2025. */
export const COPYRIGHT_YEAR = 2025;

export const LOGIN_PATH = '/account/login';
export const HOME_PATH = '/home';
