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

/** Spec 001 §9: copyright year 2025. */
export const COPYRIGHT_YEAR = 2025;

export const LOGIN_PATH = '/account/login';
export const HOME_PATH = '/home';
