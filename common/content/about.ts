/** The About Us page (spec 001 §2): who we are, how we work, and the Resume button to /resume. */
export const about = {
  eyebrow: 'About Us',
  heading: 'A small team that looks after data',
  intro:
    'We are a small software consultancy of database and web engineers. For more than a decade we have ' +
    'designed, tuned and rescued databases for shops, clinics, manufacturers and public bodies, and built the ' +
    'applications around them. DBUI, our database browser, started as the tool we wrote for our own work.',
  story: [
    'Most of our clients are organisations without a database team of their own. They need someone who can ' +
      'explain why a report takes ten minutes, make sure last night’s backup can really be restored, and ' +
      'build the small application that replaces a fragile spreadsheet.',
    'We keep the team small on purpose: the engineer you talk to in the first call is the one who does the ' +
      'work. We write everything down, hand over all code and scripts, and prefer boring, proven technology ' +
      'to fashion.',
  ],
  valuesHeading: 'How we work',
  values: [
    {
      title: 'Honest advice',
      text: 'We tell you when something does not need fixing, and what a change will really cost.',
    },
    {
      title: 'Your data stays yours',
      text: 'We work with the least access needed, keep no copies we do not need and delete them at the end.',
    },
    {
      title: 'Nothing hidden',
      text: 'Every change is scripted, reviewed and documented, so your team can carry on without us.',
    },
    {
      title: 'Accessible by default',
      text: 'What we build works on a phone, with a keyboard and with a screen reader.',
    },
  ],
  founderHeading: 'Meet the founder',
  founderText:
    'Our founder has spent twenty years building and running database-backed software, from hospital ' +
    'scheduling systems to online shops. Read about that experience in the resume.',
  resume: { label: 'Resume', to: '/resume' },
} as const;
