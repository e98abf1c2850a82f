/** The home page's texts (spec 001 §2, Homepage): the landing hero. */
export const homeHero = {
  eyebrow: 'PostgreSQL · MySQL/MariaDB · SQLite · SQL Server',
  heading: 'Your databases, in a browser tab',
  text:
    'DBUI lets your team browse, search, edit and export tables with millions of rows on PostgreSQL, ' +
    'MySQL/MariaDB, SQLite and SQL Server, with per-table permissions and two-factor sign-in for every account.',
  discover: 'Discover the Solution',
  discoverPath: '/services/database',
} as const;

export const homeServices = {
  heading: 'What we do',
  text: 'A small team of engineers for the data, cloud and software work that keeps a business running.',
} as const;

/** The open-source banner: the code is public; its link (SOURCE_CODE_URL, SiteLinks in common/content/site.ts)
 * leaves the site. */
export const homeOpenSource = {
  heading: 'Open source, MIT licensed',
  text:
    'DBUI is built in the open. Read the code, run it on your own server, report a problem or send a change: ' +
    'the whole application, server and browser, is in one public repository.',
  action: 'View the repository',
} as const;

/** The news cards (the articles themselves are in common/content/news.ts). */
export const homeNews = {
  heading: 'Latest news',
  text: 'Notes from our work with clients: what we changed, what it cost and what it saved.',
  viewAll: 'View All',
  viewAllPath: '/news',
  readMore: 'Read More',
  /** How many of the newest articles the home page shows. */
  count: 3,
} as const;

/** The Sign Up banner (spec 001 §2): to /account/signup. */
export const homeSignUp = {
  heading: 'Try it on your own data',
  text:
    'Create a free account in a minute. Two-factor sign-in is on for every account, and an administrator ' +
    'decides which databases and tables you can see.',
  action: 'Sign Up',
  path: '/account/signup',
} as const;

/** The DBUI promo (spec 001 §2): Learn More and Buy Now to /products/dbui, Request Demo to /contact-us. */
export const homePromo = {
  eyebrow: 'Our product',
  heading: 'DBUI: every table your team needs, one browser tab',
  text:
    'Browse and search tables of millions of rows, edit them with every change recorded and undoable, and ' +
    'export them to CSV or Excel, on PostgreSQL, MySQL/MariaDB, SQLite and SQL Server.',
  learnMore: 'Learn More',
  learnMorePath: '/products/dbui',
  buyNow: 'Buy Now',
  buyNowPath: '/products/dbui',
  requestDemo: 'Request Demo',
  requestDemoPath: '/contact-us',
  points: [
    'Read-only, editor and owner rights for each table, set by your administrator',
    'Every change kept in an audit log, with undo',
    'Exports that run in the background and wait for you',
    'Two-factor sign-in for every account, with passkeys',
  ],
} as const;

/** A few made-up rows for the hero's illustration of the table browser. */
export const sampleRows: readonly { id: number; customer: string; country: string; total: string }[] = [
  { id: 1041, customer: 'Northwind Traders', country: 'Canada', total: '1,284.50' },
  { id: 1042, customer: 'Blue Harbor Ltd', country: 'Ireland', total: '312.00' },
  { id: 1043, customer: 'Kestrel Foods', country: 'Germany', total: '2,940.75' },
  { id: 1044, customer: 'Atlas Outfitters', country: 'USA', total: '87.20' },
  { id: 1045, customer: 'Lumen Studio', country: 'Japan', total: '645.00' },
];
