/**
 * The consent banner's words. Spec 001 §2 asks only for a banner with a link to /privacy-policy and §4 for an
 * accepted or rejected choice; the sentences are ours, and say what the site's first-party analytics really keep
 * (server/features/analytics: the page, the day and the choice; no IP address, no cookie).
 */
export const consentTexts = {
  title: 'Cookies and analytics',
  body: 'May we count your visit? With your consent, our own server records which pages are viewed and on which day. No tracking cookies, no IP address, nothing shared with anyone else.',
  privacyLink: 'Read our Privacy Policy',
  privacyPath: '/privacy-policy',
  accept: 'Accept',
  reject: 'Reject',
  /** The footer's link that shows the banner again, and the privacy policy's name for it. */
  settings: 'Cookie settings',
  /** Shown in the banner opened again from Cookie settings: the choice in force, and how to keep it. */
  current: {
    accepted:
      'You have accepted: our own server records which pages you view and on which day. Reject to stop it now.',
    rejected:
      'You have rejected: no page views are sent. Accept to let our own server record which pages you view and on which day.',
  },
} as const;
