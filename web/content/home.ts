/** The home page's texts (spec 001 §2, Homepage): the landing hero. */
export const homeHero = {
  eyebrow: 'PostgreSQL · MySQL/MariaDB · SQLite · SQL Server',
  heading: 'Your databases, in a browser tab',
  text:
    'DBUI lets your team browse, search, edit and export tables with millions of rows on PostgreSQL, ' +
    'MySQL/MariaDB, SQLite and SQL Server, with per-table permissions and two-factor sign-in for every account.',
  discover: 'Discover the Solution',
  discoverPath: '/services/database',
  product: 'Meet DBUI',
  productPath: '/products/dbui',
} as const;

export const homeServices = {
  heading: 'What we do',
  text: 'A small team of engineers for the data, cloud and software work that keeps a business running.',
} as const;

/** A few made-up rows for the hero's illustration of the table browser. */
export const sampleRows: readonly { id: number; customer: string; country: string; total: string }[] = [
  { id: 1041, customer: 'Northwind Traders', country: 'Canada', total: '1,284.50' },
  { id: 1042, customer: 'Blue Harbor Ltd', country: 'Ireland', total: '312.00' },
  { id: 1043, customer: 'Kestrel Foods', country: 'Germany', total: '2,940.75' },
  { id: 1044, customer: 'Atlas Outfitters', country: 'USA', total: '87.20' },
  { id: 1045, customer: 'Lumen Studio', country: 'Japan', total: '645.00' },
];
