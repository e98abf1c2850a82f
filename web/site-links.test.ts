import { afterEach, describe, expect, it } from 'vitest';
import { noSiteLinks } from '#common/content/site.ts';
import { siteLinks } from '#web/site-links.ts';
import { clearSiteLinks, setSiteLinks } from '#web/test/site-links.ts';

afterEach(() => clearSiteLinks());

describe("the site's outside addresses", () => {
  it('are read from the tags the server writes into the page, each null when missing', () => {
    expect(siteLinks()).toEqual(noSiteLinks);
    setSiteLinks({ sourceCode: 'https://code.example.org/dbui', supportEmail: 'help@example.org' });
    expect(siteLinks()).toEqual({
      ...noSiteLinks,
      sourceCode: 'https://code.example.org/dbui',
      supportEmail: 'help@example.org',
    });
  });

  it('take only http and https addresses as links', () => {
    setSiteLinks({ mastodon: 'javascript:alert(1)', shop: 'https://shop.example.org' });
    expect(siteLinks().mastodon).toBeNull();
    expect(siteLinks().shop).toBe('https://shop.example.org');
  });
});
