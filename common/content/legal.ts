/** The Privacy Policy and the Terms of Use (spec 001 §2, §9): static text, effective January 1st 2024, changes
 * announced at least 30 days ahead, governed by the law of a US state. The privacy policy describes what this
 * site and DBUI really store (the app store's tables, the browser's storage, the server's logs). */

export interface LegalSection {
  heading: string;
  paragraphs: readonly string[];
  /** A list after the paragraphs. */
  items?: readonly string[];
}

export interface LegalDocument {
  title: string;
  /** Spec 001 §9: January 1st 2024. */
  effective: string;
  intro: readonly string[];
  sections: readonly LegalSection[];
}

/** Spec 001 §9. */
export const LEGAL_EFFECTIVE_DATE = 'January 1st 2024';
/** Spec 001 §9: the terms promise at least 30 days' notice of changes (the policy does the same). */
export const NOTICE_DAYS = 30;
/** Spec 001 §9: the governing law is a US state. */
export const GOVERNING_STATE = 'the State of Delaware';
/** Phrases of the texts that the page shows as links, and where they lead. */
export const LEGAL_LINKS: readonly { phrase: string; to: string }[] = [
  { phrase: 'Contact Us page', to: '/contact-us' },
  { phrase: 'Privacy Policy', to: '/privacy-policy' },
];
/** The key the cookie-consent choice is kept under (spec 001 §9). */
const CONSENT_KEY = 'accept-cookies-v1';

export const privacyPolicy: LegalDocument = {
  title: 'Privacy Policy',
  effective: LEGAL_EFFECTIVE_DATE,
  intro: [
    'This policy explains what information this website and the DBUI application running on it collect, why, ' +
      'how long we keep it and what you can ask us to do with it. We collect as little as we can, we do not sell ' +
      'personal information, and we do not use advertising or third-party tracking of any kind.',
  ],
  sections: [
    {
      heading: 'Who we are',
      paragraphs: [
        'The website and DBUI are run by DBUI’s makers, a small software consultancy ("we", "us"). We decide ' +
          'why and how the information described here is used. You can reach us about privacy through the ' +
          'Contact Us page.',
      ],
    },
    {
      heading: 'Visiting the site without an account',
      paragraphs: [
        'You can read the public pages without an account. Our server keeps a technical log of requests (the ' +
          'time, the page or call, the answer, and the network address your request came from) so we can keep ' +
          'the service running, limit abuse and investigate errors. These logs are not used to build profiles ' +
          'and are not shared with anyone.',
        'The human check on the sign-in, sign-up and forgot-password forms is our own (ALTCHA, hosted on this ' +
          'server): your browser solves a small puzzle, and no third party is involved.',
      ],
    },
    {
      heading: 'Analytics, only with your consent',
      paragraphs: [
        'If, and only if, you accept in the cookie banner, your browser tells our own server which page you ' +
          'opened each time you move to another page. We keep a count of visitors per page and day, and nothing ' +
          'else: no network (IP) address, no account, no browser fingerprint and no identifier that links one ' +
          'page view to another. We also count, once, whether a visitor accepted or rejected, so we know the ' +
          'share of each.',
        'To count each visitor once per page and day, our server keeps, until the end of that day (UTC), a ' +
          'one-way code made from your network address with a key that exists for that day only. At the end of ' +
          'the day the key and the codes are deleted, and nothing then ties the counts to anyone.',
        'These statistics stay on our server; no analytics company or other third party receives them. If you ' +
          'reject, no page views are sent at all.',
        'You can change your mind at any time: the Cookie settings link at the bottom of every page shows the ' +
          'banner again. If you change from accept to reject, page views stop at once, and we record the new ' +
          'choice the same way.',
      ],
    },
    {
      heading: 'What your browser keeps',
      paragraphs: [
        'We use no advertising or tracking cookies. Your browser keeps only these items for this site:',
      ],
      items: [
        `Your cookie choice, in the browser's storage under the name ${CONSENT_KEY}. A rejection is remembered ` +
          'for 30 days, after which the banner asks again; Cookie settings, at the bottom of every page, ' +
          'changes it sooner.',
        'Your sign-in, when you sign in: a session token in the browser’s storage (UTOKEN), removed when you ' +
          'log out.',
        'A security cookie (XSRF-TOKEN) that protects forms against cross-site request forgery, and, during a ' +
          'sign-in with Google, Microsoft or Facebook, a short-lived cookie that checks the answer comes back ' +
          'to the same browser. Both are needed for the site to work.',
        'Your light or dark colour preference, if you choose one.',
        'If you chat with Titan, our support assistant: a cookie (dbui-chat) that lets only your browser read ' +
          'and continue your conversations, kept for 30 days after your last chat, and the current ' +
          'conversation’s number in the browser’s storage for this tab. Both are needed for the chat to work.',
      ],
    },
    {
      heading: 'Your account',
      paragraphs: [
        'When you create an account we store your username, email address and, if you give them, your first ' +
          'and last name, phone number and profile picture. Your password is stored only as a salted hash ' +
          '(Argon2id); we cannot read it. For two-factor sign-in we store the methods you set up: a confirmed ' +
          'email or phone number, an authenticator app’s secret (encrypted), passkeys’ public keys and hashes ' +
          'of recovery codes.',
        'For your security we keep your sessions, recent sign-in attempts and one-time codes (as hashes), each ' +
          'with the network address it came from, and an audit trail of important account and data actions. ' +
          'Audit entries are deleted after one year unless the operator of the service sets another period. ' +
          'If you sign in with Google, Microsoft or Facebook, we store the provider’s identifier for you and ' +
          'the email it gave us, never your password there.',
      ],
    },
    {
      heading: 'Messages you send us',
      paragraphs: [
        'When you use the Contact Us page we store your message with its subject, your account’s email address ' +
          'and name, and the time. We also email it to our team when mail is configured, and we keep a record ' +
          'of whether that delivery worked. When we answer, the answer is stored with your message and emailed ' +
          'to you. We use your messages only to reply to you and to improve our services.',
        'When you chat with Titan we store the conversation: your messages, Titan’s answers, the time and, if ' +
          'you are signed in, your account. Our team reads conversations to improve Titan’s answers and this ' +
          'site; no network address is kept with them. Titan answers from this site’s own pages.',
      ],
    },
    {
      heading: 'Who else receives information',
      paragraphs: [
        'We share information only with the services needed to deliver what you ask for, and only what they need:',
      ],
      items: [
        'Our email provider, to deliver sign-in codes, contact messages and our answers.',
        'Our text-message provider, to deliver sign-in codes when you choose a phone number.',
        'Google, Microsoft or Facebook, only if you choose to sign in with them.',
        'A language-model service, only if we configure one to word Titan’s answers: it receives your chat ' +
          'messages and the passages of this site that answer them, never your name or account.',
        'Authorities, only where the law requires it.',
      ],
    },
    {
      heading: 'How long we keep it',
      paragraphs: [
        'Account information is kept while your account exists. When you delete your account from your ' +
          'account page, it is deleted together with its roles, picture, sign-in methods, sessions and codes. ' +
          'The audit trail keeps a record that the account was deleted, with its username, until that entry’s ' +
          'retention period ends (one year by default). Contact messages are kept as long as we need them to ' +
          'follow up on your request, and chat conversations as long as they help us improve Titan. Anonymous page statistics are kept for reporting and cannot be traced ' +
          'back to you.',
      ],
    },
    {
      heading: 'Your rights',
      paragraphs: [
        'You can see and correct most of your information on your account page and delete your account there. ' +
          'You can also ask us for a copy of your information, to correct or delete it, or to stop using it, ' +
          'through the Contact Us page. You can change your cookie choice at any time with the Cookie settings ' +
          'link at the bottom of every page. If you believe we handle your information wrongly, you may also complain to ' +
          'your local data protection authority.',
      ],
    },
    {
      heading: 'Security',
      paragraphs: [
        'Connections are encrypted, passwords and codes are stored only as hashes, secrets are encrypted at ' +
          'rest, and every account signs in with a second factor. No system is perfectly secure; if a breach ' +
          'affects your information, we will tell you without undue delay.',
      ],
    },
    {
      heading: 'Children',
      paragraphs: [
        'The site is meant for businesses. We do not knowingly collect information from children under 16.',
      ],
    },
    {
      heading: 'Changes to this policy',
      paragraphs: [
        `We will announce changes on this page at least ${NOTICE_DAYS} days before they take effect, and email ` +
          'account holders about important changes. The date at the top shows when the current version took ' +
          'effect.',
      ],
    },
  ],
};

export const termsOfUse: LegalDocument = {
  title: 'Terms of Use',
  effective: LEGAL_EFFECTIVE_DATE,
  intro: [
    'These terms apply to everyone who visits this website or uses the DBUI application on it. By using the ' +
      'site you agree to them. If you do not agree, please do not use the site.',
  ],
  sections: [
    {
      heading: 'The service',
      paragraphs: [
        'The website describes our consulting services and products. Parts of it, such as the database browser, ' +
          'are available only to people with an account and the rights an administrator gave them. The site is ' +
          'under development: some features may be missing or change, and we may suspend parts of it for ' +
          'maintenance.',
      ],
    },
    {
      heading: 'Your account',
      paragraphs: [
        'You must give accurate information when you sign up, keep your password and second sign-in factor to ' +
          'yourself, and tell us at once if you believe someone else has used your account. You are responsible ' +
          'for what is done with your account. Two-factor authentication is required on every account.',
      ],
    },
    {
      heading: 'Acceptable use',
      paragraphs: ['You agree not to:'],
      items: [
        'access data, tables or accounts you have not been given rights to, or try to get around those rights;',
        'probe, scan or test the security of the site without our written permission;',
        'overload the site, for example with automated requests beyond ordinary use;',
        'upload or enter content that is unlawful, harmful or that infringes someone else’s rights;',
        'use the site to send unsolicited messages.',
      ],
    },
    {
      heading: 'Your data',
      paragraphs: [
        'Data you enter or manage through DBUI remains yours or your organisation’s. We process it only to ' +
          'provide the service, as described in our Privacy Policy. You are responsible for having the right to ' +
          'store and edit that data and for keeping your own backups of it.',
      ],
    },
    {
      heading: 'Our content',
      paragraphs: [
        'The texts, pictures and software on this site belong to us or our licensors. You may read and share ' +
          'links to our pages; copying them in other ways needs our permission, except where a part is ' +
          'published under an open-source licence, whose terms then apply to that part.',
      ],
    },
    {
      heading: 'Consulting engagements',
      paragraphs: [
        'The descriptions of our services on this site are not an offer. Work we do for you is governed by the ' +
          'written agreement we sign together, which takes precedence over these terms where they differ.',
      ],
    },
    {
      heading: 'Disclaimer',
      paragraphs: [
        'The site is provided "as is" and "as available". As far as the law allows, we give no warranty that it ' +
          'will be uninterrupted, error-free or fit for a particular purpose. Information on the public pages is ' +
          'general and is not professional advice for your situation.',
      ],
    },
    {
      heading: 'Limitation of liability',
      paragraphs: [
        'As far as the law allows, we are not liable for indirect or consequential losses, such as lost profits ' +
          'or lost data, arising from the use of the site. Our total liability for any claim about the site is ' +
          'limited to one hundred US dollars. Nothing in these terms limits liability that cannot be limited by ' +
          'law.',
      ],
    },
    {
      heading: 'Ending your use',
      paragraphs: [
        'You may stop using the site and delete your account at any time. We may suspend or close an account ' +
          'that breaks these terms, and will tell you why unless the law or the security of others prevents it.',
      ],
    },
    {
      heading: 'Changes to these terms',
      paragraphs: [
        `We will give at least ${NOTICE_DAYS} days' notice of any change to these terms, on this page and by ` +
          'email to account holders, before it takes effect. If you keep using the site after a change takes ' +
          'effect, the new terms apply.',
      ],
    },
    {
      heading: 'Governing law',
      paragraphs: [
        `These terms are governed by the laws of ${GOVERNING_STATE}, United States, without regard to its ` +
          'conflict-of-law rules. Disputes will be heard by the state or federal courts located there, unless ' +
          'the law of your country gives you the right to go to your local courts.',
      ],
    },
    {
      heading: 'Contact',
      paragraphs: ['Questions about these terms are welcome through the Contact Us page.'],
    },
  ],
};
