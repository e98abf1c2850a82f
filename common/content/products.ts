import { shellMessages } from '#common/messages.ts';

/** The products of spec 001 §2 (only DBUI) and what its page says while it is coming soon. */
export interface Product {
  id: 'dbui';
  name: string;
  /** Spec 001 §2: the page shows PRODUCTS COMING SOON. */
  banner: string;
  heading: string;
  text: string;
  features: readonly { title: string; text: string }[];
  /** Where someone who wants to hear more goes. */
  contact: { label: string; to: string; text: string };
}

export const productDetails: readonly Product[] = [
  {
    id: 'dbui',
    name: 'DBUI',
    banner: shellMessages.productsComingSoon,
    heading: 'DBUI: your databases in a browser tab',
    text:
      'DBUI is the tool we use every day with our clients: a web application for browsing, searching, editing ' +
      'and exporting the tables of PostgreSQL, MySQL/MariaDB, SQLite and SQL Server databases, with ' +
      'per-table permissions and two-factor sign-in for everyone. We are preparing it for general release.',
    features: [
      {
        title: 'Browse and search',
        text: 'Page through tables of millions of rows and search the indexed columns without writing SQL.',
      },
      {
        title: 'Edit with a safety net',
        text: 'Every change is recorded in an audit trail with who made it, and can be undone.',
      },
      {
        title: 'Permissions per table',
        text: 'Roles decide which tables each person sees and whether they may add, change or delete rows.',
      },
      {
        title: 'Exports',
        text: 'CSV, CSV for Excel, JSON Lines and XLSX, streamed in the background for large tables.',
      },
    ],
    contact: {
      label: 'Request a demo',
      to: '/contact-us',
      text: 'Want to see it on your own data before the release? Ask us for a demonstration.',
    },
  },
];

/** Spec 001 §2: the product of an id; an unknown or missing id selects the first (DBUI). */
export function productFor(id: string | undefined): Product {
  return productDetails.find((product) => product.id === id) ?? (productDetails[0] as Product);
}
