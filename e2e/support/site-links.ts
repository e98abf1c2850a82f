import type { SiteLinks } from '#common/content/site.ts';

/** The site's outside addresses the shared server of playwright.config.ts is given (MASTODON_URL, SOURCE_CODE_URL,
 * SHOP_URL, SUPPORT_EMAIL); servers of a journey's own (support/app-server.ts) have none unless it passes them. */
export const journeySiteLinks: SiteLinks = {
  mastodon: 'https://social.example.org/@dbui',
  sourceCode: 'https://code.example.org/dbui',
  shop: 'https://shop.example.org',
  supportEmail: 'help@example.org',
};

/** The same as the environment variables that set them. */
export const journeySiteLinksEnv = {
  MASTODON_URL: journeySiteLinks.mastodon ?? '',
  SOURCE_CODE_URL: journeySiteLinks.sourceCode ?? '',
  SHOP_URL: journeySiteLinks.shop ?? '',
  SUPPORT_EMAIL: journeySiteLinks.supportEmail ?? '',
};
