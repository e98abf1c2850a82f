/** The contact page's own words (the spec's messages are in common/messages.ts siteMessages). */
export const contactTexts = {
  title: 'Contact Us',
  intro:
    'Questions about a database, a project or DBUI? Write to us here. The message goes to the people who would do the work, not to a sales queue.',
  nextHeading: 'What happens next',
  next: [
    'Your message is saved first, so it is never lost, then mailed to our team.',
    'We answer by e-mail to your account’s address (From), usually within two working days.',
    'For a consultation, say what you run today (engines, sizes, versions) and what should change.',
  ],
  formName: 'Contact form',
  from: 'From',
  fromDescription: 'Your account’s e-mail address: we answer there. Change it on your account page.',
  subject: 'Subject',
  message: 'Message',
  count: (length: number, max: number) => `${length} / ${max} characters`,
  send: 'Send message',
  /** Only if a successful answer came without its sentence (the server always sends one). */
  sentFallback: 'Your message was received.',
} as const;
