import type { NewsTeaser } from '#common/content/news-teasers.ts';

/**
 * The four news articles of spec 001 §2 (News) and §3 (News article: title, subtitle, image, createdOn, content).
 * Static content (spec 001 §7). The content is a list of plain-text paragraphs (no HTML: the pages render each one
 * as a paragraph). The home page's news cards and the news pages read this file.
 */

/** What an article's picture shows; the pages draw it as an illustration and use `alt` as its accessible name. */
export interface NewsImage {
  /** The text alternative, read by screen readers. */
  alt: string;
  /** Which illustration the pages draw. */
  motif: 'operations' | 'agile' | 'challenges' | 'future';
}

/** A whole article: the teaser's title, day and summary (news-teasers.ts) and the rest. */
export interface NewsArticle extends NewsTeaser {
  subtitle: string;
  image: NewsImage;
  author: string;
  /** The body, one paragraph per item; at least four, so both columns have text (spec 001 §9). */
  content: readonly string[];
}

export const NEWS_AUTHOR = 'Jordan Ellis';

/** Spec 001 §9: the other-news list shows 3 articles; the body splits at the last 3 paragraphs. */
export const OTHER_NEWS_COUNT = 3;
export const SECOND_COLUMN_PARAGRAPHS = 3;

/** In the spec's order; the first is the fallback for an unknown title. */
export const newsArticles: readonly [NewsArticle, ...NewsArticle[]] = [
  {
    title: 'Streamlining Business Operations',
    subtitle: 'Fewer spreadsheets, fewer copies, one source of truth',
    image: {
      alt: 'An illustration of several scattered spreadsheets flowing into a single database table.',
      motif: 'operations',
    },
    createdOn: '2025-02-11',
    author: NEWS_AUTHOR,
    summary:
      'Most of the slow work we see in small businesses comes from the same data living in five places. ' +
      'Here is how we bring it back to one database without stopping the business.',
    content: [
      'When a new client calls us, the first thing we ask for is not their server list but a tour of a normal ' +
        'working day. Almost every time, we find the same customer or order typed into a spreadsheet, an ' +
        'accounting package, an e-mail thread and a shared drive. Each copy is a little different, and someone ' +
        'spends hours every week reconciling them.',
      'Streamlining starts with choosing one place where each fact lives. For most of our clients that is a ' +
        'relational database, usually PostgreSQL or MySQL, because the data already has a clear shape: customers, ' +
        'orders, invoices, stock. The database does not replace the tools people like; it becomes the thing those ' +
        'tools read from and write to.',
      'We never move everything at once. We pick the copy that causes the most rework, import it with checks that ' +
        'report every row that does not fit, and run the old and new side by side for a few weeks. People keep ' +
        'their habits while the numbers are compared every night.',
      'Once the data is in one place, the quick wins appear on their own. A report that took a morning becomes a ' +
        'saved query. A monthly export to the accountant becomes a scheduled job. Permissions can finally say who ' +
        'may change a price and who may only read it.',
      'The part that is easy to forget is access for the people who are not developers. A sales lead should not ' +
        'need SQL to correct a customer address. That is why we built DBUI: a browser tab where a team can search, ' +
        'edit and export the tables they are allowed to see, with every change recorded.',
      'Streamlining is not a project with an end date. We leave every client with a short list of the copies that ' +
        'remain, what each one costs in time, and the order in which we would retire them.',
      'If your week includes copying numbers from one screen to another, that is the place to start. Tell us about ' +
        'it and we will tell you honestly whether a database is the answer.',
    ],
  },
  {
    title: 'Agile Development',
    subtitle: 'Short cycles, working software and a database that keeps up',
    image: {
      alt: 'An illustration of a circular arrow around a task board with three columns: to do, doing and done.',
      motif: 'agile',
    },
    createdOn: '2025-04-02',
    author: NEWS_AUTHOR,
    summary:
      'Agile is easy to say and hard to do when every change touches a production database. ' +
      'This is how we keep two-week cycles honest, schema changes included.',
    content: [
      'We work in two-week cycles. At the start of each one the client chooses what matters most from a short, ' +
        'ordered list; at the end they use the result on real data, not a slide deck. That rhythm is the whole ' +
        'point of agile development, and it is the part we protect above any ceremony.',
      'Databases are where agile teams usually slow down. Code can be rolled back in a minute; a column that was ' +
        'dropped cannot. So every schema change we make is a numbered, forward-only migration, reviewed like code ' +
        'and run first against a copy of production.',
      'We split risky changes in two. First we add the new column or table and write to both places; a cycle ' +
        'later, once the new path has run in production, we remove the old one. It costs a little more work and ' +
        'saves the weekend nobody wants.',
      'Automated tests run against the same database engine the client uses in production, not a lighter stand-in. ' +
        'A query that works on one engine and fails on another is a surprise we would rather have on a Tuesday ' +
        'afternoon than during a release.',
      'Demos are short and concrete. We show the feature on the client\u2019s data, list what is not finished, and ' +
        'write down what they noticed. Those notes become the next cycle\u2019s list, in the client\u2019s words.',
      'Agile does not mean without a plan. We keep a one-page outline of where the system is going, and we revise ' +
        'it when what we learn in a cycle changes the picture.',
      'If your last project felt like a long wait followed by a big surprise, ask us how a first two-week cycle ' +
        'would look for your team.',
    ],
  },
  {
    title: 'Solving All Your Business Challenges',
    subtitle: 'What a small consultancy can solve, and what it should not try to',
    image: {
      alt: 'An illustration of a puzzle with its last piece, shaped like a database cylinder, being put in place.',
      motif: 'challenges',
    },
    createdOn: '2025-06-17',
    author: NEWS_AUTHOR,
    summary:
      'No single team solves every problem, and we would rather say so up front. Here is how we decide what to ' +
      'take on, and how we help when the answer is someone else.',
    content: [
      'The title of this article is a promise we hear often in our industry, and we want to be careful with it. ' +
        'What we can promise is to look at every challenge you bring us, tell you which ones we can solve well, ' +
        'and point you to the right people for the rest.',
      'Most business challenges we are asked about come down to data: it is slow to find, hard to trust or ' +
        'locked inside a tool nobody can change. Those are the problems we are good at. We tune slow queries, ' +
        'design schemas that match how the business really works and connect systems that should have been ' +
        'talking for years.',
      'Some challenges only look technical. A report that nobody reads will not improve with a faster database. ' +
        'In the first conversation we ask who uses the result and what decision it supports, because the answer ' +
        'often changes what we build.',
      'We start with a paid, fixed-length assessment: one or two weeks, a written report, a list of findings ranked ' +
        'by cost and benefit, and an estimate for each. You can take that report to us or to anyone else.',
      'When we do take the work on, we keep the team small and the scope visible. You always know who is working ' +
        'on what, what it has cost so far and what is left.',
      'And when a problem is outside what we do well, such as large-scale data science or specialised accounting ' +
        'rules, we say so and introduce you to people we have worked with and trust.',
      'If there is a challenge you have been putting off because it seemed too tangled to explain, that is exactly ' +
        'the conversation we like to have.',
    ],
  },
  {
    title: 'The Future of Software',
    subtitle: 'AI assistants, open source and why the data still matters most',
    image: {
      alt: 'An illustration of a code editor beside a chat bubble, both connected to a database.',
      motif: 'future',
    },
    createdOn: '2025-09-09',
    author: NEWS_AUTHOR,
    summary:
      'AI assistants are changing how software is written, but not what makes it useful. Our view on where ' +
      'things are going, and what it means for the systems you run today.',
    content: [
      'Every few years someone announces the end of programming. This time the tools are real: language models ' +
        'write working code, explain unfamiliar systems and answer questions about data in plain English. We use ' +
        'them every day, and they have changed how we work.',
      'What they have not changed is what makes software valuable to a business. A system is useful when its data ' +
        'is correct, its rules match how the business works and the right people can reach it. An assistant can ' +
        'write a query in seconds; it cannot know that the discount column stopped being used in 2019.',
      'That is why we expect well-designed databases to matter more, not less. An AI tool connected to a clear ' +
        'schema with good names and documented rules gives good answers. The same tool connected to a tangle of ' +
        'copies gives confident, wrong ones.',
      'Access control matters more too. When an assistant can read your data, it must see only what the person ' +
        'asking is allowed to see. We build AI connections on top of the permissions a system already has, never ' +
        'around them.',
      'Open source will keep carrying most of the load. The databases we recommend, PostgreSQL, MySQL, MariaDB ' +
        'and SQLite, are open source, and so is much of the tooling around them. We contribute back where we can ' +
        'and publish our own tools in the open.',
      'Smaller teams will build more. A team of three with good tools can now deliver what needed ten people a ' +
        'decade ago, provided the foundations are sound. That is the kind of team we are, and the kind of ' +
        'foundation we like to build.',
      'If you are wondering what these changes mean for the systems you run today, we are happy to talk it ' +
        'through, without hype and without a sales script.',
    ],
  },
];

// newsPath and formatNewsDate live with the home page's teasers (news-teasers.ts), which need no article bodies.
export { formatNewsDate, newsPath } from '#common/content/news-teasers.ts';

/**
 * The article for an address's title (already decoded by the router); an unknown or missing title selects the
 * first article (spec 001 §2).
 */
export function findNewsArticle(title: string | undefined): NewsArticle {
  const found = title === undefined ? undefined : newsArticles.find((article) => article.title === title);
  return found ?? newsArticles[0];
}

/** The other articles shown under 'Want to keep Reading?': three, never the article itself (spec 001 §9). */
export function otherNewsArticles(article: NewsArticle): readonly NewsArticle[] {
  return newsArticles.filter((other) => other.title !== article.title).slice(0, OTHER_NEWS_COUNT);
}

/** An article's body in two columns: the last three paragraphs in column 2, the rest in column 1 (spec 001 §9). */
export function splitNewsContent(content: readonly string[]): {
  first: readonly string[];
  second: readonly string[];
} {
  const cut = Math.max(0, content.length - SECOND_COLUMN_PARAGRAPHS);
  return { first: content.slice(0, cut), second: content.slice(cut) };
}
