import type { ServiceSummary } from '#common/content/service-summaries.ts';

/** The six services of spec 001 §2 and §3, in menu order: the summaries the header menu and home cards use, and
 * each service's page (heading, two descriptions, six offers). Icons are named here and drawn by the page. */

/** The icons a service page can draw (web/features/services/service-icons.ts maps them to pictures). */
export type ServiceIconName =
  | 'database'
  | 'cloud'
  | 'code'
  | 'brain'
  | 'device-mobile'
  | 'messages'
  | 'gauge'
  | 'shield-lock'
  | 'arrows-transfer'
  | 'history'
  | 'chart-line'
  | 'server'
  | 'coin'
  | 'git-branch'
  | 'plug'
  | 'checklist'
  | 'users'
  | 'search'
  | 'robot'
  | 'lock-access'
  | 'accessible'
  | 'bolt'
  | 'palette'
  | 'map'
  | 'school'
  | 'file-text'
  | 'life-buoy';

export interface ServiceOffer {
  icon: ServiceIconName;
  title: string;
  text: string;
}

/** Spec 001 §3 Service: id, name, icon, image, heading, description, description2, offers. */
export interface Service extends ServiceSummary {
  icon: ServiceIconName;
  /** The picture beside the heading (a drawing per service, web/features/services/service-pictures.tsx): what it
   * shows, for people who cannot see it. */
  image: { alt: string };
  heading: string;
  description: string;
  description2: string;
  offers: readonly ServiceOffer[];
}

export const serviceDetails: readonly Service[] = [
  {
    id: 'database',
    name: 'Database Management',
    summary: 'Design, tuning and day-to-day care of PostgreSQL, MySQL, SQLite and SQL Server databases.',
    icon: 'database',
    image: {
      alt: 'A database drum with three status lights beside a rising performance chart and a tick for a backup that was tested.',
    },
    heading: 'Databases that stay fast, safe and understood',
    description:
      'Most business software is only as good as the database underneath it. We design schemas that match how ' +
      'your data is really used, find the queries that slow everything down, and put backups and monitoring in ' +
      'place that someone has actually tested.',
    description2:
      'We work with PostgreSQL, MySQL and MariaDB, SQLite and Microsoft SQL Server, on your own servers or in ' +
      'the cloud. You keep full ownership: every change is written down, scripted and handed over, so your team ' +
      'can carry on without us.',
    offers: [
      {
        icon: 'database',
        title: 'Schema design and review',
        text: 'Tables, keys and constraints that protect your data, reviewed before they are hard to change.',
      },
      {
        icon: 'gauge',
        title: 'Performance tuning',
        text: 'We read the query plans, add the right indexes and rewrite the few queries that cost the most.',
      },
      {
        icon: 'history',
        title: 'Backups you can restore',
        text: 'Scheduled backups and point-in-time recovery, with restore drills so you know they work.',
      },
      {
        icon: 'arrows-transfer',
        title: 'Migrations and upgrades',
        text: 'Moves between versions or engines planned step by step, rehearsed, and with a way back.',
      },
      {
        icon: 'shield-lock',
        title: 'Access and security',
        text: 'Least-privilege roles, encrypted connections and an audit trail of who changed what.',
      },
      {
        icon: 'chart-line',
        title: 'Monitoring and care',
        text: 'Alerts on disk, replication and slow queries, and a monthly report in plain language.',
      },
    ],
  },
  {
    id: 'cloud',
    name: 'Cloud Technology',
    summary: 'Move workloads to the cloud and run them reliably, securely and at a sensible cost.',
    icon: 'cloud',
    image: { alt: 'A cloud with a padlock, connected to three servers below it.' },
    heading: 'The cloud, without the surprises on the bill',
    description:
      'The cloud can make software easier to run, or much more expensive and complicated. We help you choose ' +
      'what to move, where to run it and how to keep it simple: managed databases where they pay off, plain ' +
      'virtual machines or containers where they do not.',
    description2:
      'Everything we build is described as code, so environments can be recreated in minutes and reviewed like ' +
      'any other change. We set up budgets and alerts from the first day, and we document the running costs ' +
      'before you commit to them.',
    offers: [
      {
        icon: 'map',
        title: 'Migration planning',
        text: 'An inventory of what you run today and a step-by-step plan for what moves, when and why.',
      },
      {
        icon: 'server',
        title: 'Infrastructure as code',
        text: 'Networks, servers and databases defined in version control and applied the same way every time.',
      },
      {
        icon: 'git-branch',
        title: 'Build and release pipelines',
        text: 'Automatic tests and deployments, so a release is a routine step instead of a late-night event.',
      },
      {
        icon: 'coin',
        title: 'Cost reviews',
        text: 'We find idle resources and oversized instances and agree on budgets with alerts before they run over.',
      },
      {
        icon: 'shield-lock',
        title: 'Security baseline',
        text: 'Private networks, managed secrets, encryption at rest and accounts with only the rights they need.',
      },
      {
        icon: 'life-buoy',
        title: 'Disaster recovery',
        text: 'Copies in a second region and a written, tested procedure for getting back online.',
      },
    ],
  },
  {
    id: 'custom-apps',
    name: 'Custom Applications',
    summary: 'Software built around the way your business works, not the other way round.',
    icon: 'code',
    image: {
      alt: 'An application window showing code in angle brackets, with a gear and building blocks beside it.',
    },
    heading: 'Software shaped around your work',
    description:
      'When spreadsheets and off-the-shelf tools no longer fit, a small custom application often does. We start ' +
      'by watching how your team works today, then build the smallest tool that removes the repetitive steps and ' +
      'the copy-and-paste errors.',
    description2:
      'We deliver in short steps you can try, with automated tests from the start. The code, the documentation ' +
      'and the deployment scripts are yours, written in common, well-supported technologies such as TypeScript, ' +
      'React, Node.js and SQL, so any capable developer can maintain them.',
    offers: [
      {
        icon: 'checklist',
        title: 'Requirements workshops',
        text: 'Short sessions with the people who do the work, ending in a clear, prioritised list.',
      },
      {
        icon: 'code',
        title: 'Internal tools',
        text: 'Back-office screens for orders, stock, bookings or approvals, built on your existing data.',
      },
      {
        icon: 'plug',
        title: 'Integrations',
        text: 'Connections between your accounting, CRM, shop and database, so data is entered only once.',
      },
      {
        icon: 'arrows-transfer',
        title: 'Legacy modernisation',
        text: 'Old Access, Excel or desktop applications moved to the web, one part at a time.',
      },
      {
        icon: 'shield-lock',
        title: 'Secure by default',
        text: 'Two-factor sign-in, role-based permissions and audit trails built in, not added later.',
      },
      {
        icon: 'life-buoy',
        title: 'Support and maintenance',
        text: 'Security updates, small improvements and a named engineer who knows your application.',
      },
    ],
  },
  {
    id: 'ai',
    name: 'AI Connectivity',
    summary: 'Connect language models to your own data and tools, with the access rules you already have.',
    icon: 'brain',
    image: {
      alt: 'A chat bubble with a spark, linked to a document and a database: an assistant answering from your own data.',
    },
    heading: 'AI that knows your data and respects your rules',
    description:
      'Language models become useful when they can look things up in your own documents and databases. We ' +
      'connect them to your data through narrow, read-only interfaces, so an assistant can answer questions ' +
      'about orders, stock or contracts without being handed the keys to everything.',
    description2:
      'We start with one concrete task and measure whether the answers are correct before anything reaches ' +
      'customers or staff. Where the data is sensitive we can use models you host yourself, and we never send ' +
      'your data to a provider that keeps it for training.',
    offers: [
      {
        icon: 'search',
        title: 'Search over your documents',
        text: 'Answers drawn from your manuals, policies and tickets, each with a link to its source.',
      },
      {
        icon: 'database',
        title: 'Questions about your data',
        text: 'Plain-language questions turned into checked, read-only queries against your database.',
      },
      {
        icon: 'robot',
        title: 'Assistants for your team',
        text: 'Chat assistants that draft replies, summaries and reports for a person to approve.',
      },
      {
        icon: 'lock-access',
        title: 'Access rules kept',
        text: 'The assistant sees only what the person asking is allowed to see, and every call is logged.',
      },
      {
        icon: 'checklist',
        title: 'Evaluation',
        text: 'A test set of real questions and expected answers, run on every change to catch regressions.',
      },
      {
        icon: 'server',
        title: 'Self-hosted models',
        text: 'Open models running on your own hardware or private cloud when data must not leave.',
      },
    ],
  },
  {
    id: 'web-mobile',
    name: 'Web & Mobile Apps',
    summary: 'Fast, accessible sites and apps that work as well on a phone as on a desktop.',
    icon: 'device-mobile',
    image: { alt: 'A laptop and a phone showing the same page, laid out to fit each screen.' },
    heading: 'Web and mobile apps people enjoy using',
    description:
      'More than half of your visitors arrive on a phone. We build sites and web applications that load quickly ' +
      'on a slow connection, read well on a small screen and work with a keyboard and a screen reader, because ' +
      'accessible software is better software for everyone.',
    description2:
      'Where an installed app is really needed, we build it from the same code base as the web version, so you ' +
      'maintain one product instead of three. Each release is checked on real phones and desktop browsers in ' +
      'light and dark mode before it goes out.',
    offers: [
      {
        icon: 'device-mobile',
        title: 'Responsive web apps',
        text: 'One application that adapts from a 360-pixel phone to a wide desktop screen.',
      },
      {
        icon: 'accessible',
        title: 'Accessibility',
        text: 'Designs and code checked against WCAG 2.2, with fixes for the problems we find.',
      },
      {
        icon: 'bolt',
        title: 'Performance',
        text: 'Small bundles, optimised images and caching, measured on a mid-range phone.',
      },
      {
        icon: 'palette',
        title: 'Design systems',
        text: 'A shared set of components and colours so every screen looks and behaves the same.',
      },
      {
        icon: 'plug',
        title: 'APIs and back ends',
        text: 'Documented, versioned APIs with validation on the server, ready for web and mobile clients.',
      },
      {
        icon: 'chart-line',
        title: 'Privacy-friendly analytics',
        text: 'First-party page statistics, only with consent, and no third-party trackers.',
      },
    ],
  },
  {
    id: 'consult',
    name: 'Get a Consult',
    summary: 'Talk through a problem with an engineer and leave with a plan you can act on.',
    icon: 'messages',
    image: { alt: 'Two speech bubbles above a whiteboard with a three-step plan, the first step ticked.' },
    heading: 'Talk to an engineer, not a sales team',
    description:
      'Not sure whether you need a new database, a cloud migration or just a few better indexes? Book a ' +
      'consultation and talk it through with one of the engineers who would do the work. We listen, ask about ' +
      'your constraints and tell you honestly what we would do, including when the answer is to change nothing.',
    description2:
      'After the call you receive a short written summary with our recommendations, the risks we see and a rough ' +
      'estimate of effort. There is no obligation to continue with us: the plan is yours to use with your own ' +
      'team or another supplier.',
    offers: [
      {
        icon: 'messages',
        title: 'Free first call',
        text: 'Thirty minutes by video to understand your situation and whether we can help.',
      },
      {
        icon: 'search',
        title: 'Technical review',
        text: 'A look at your database, code or infrastructure, with findings ranked by impact.',
      },
      {
        icon: 'file-text',
        title: 'Written recommendations',
        text: 'A plain-language report with concrete next steps, not a slide deck of buzzwords.',
      },
      {
        icon: 'map',
        title: 'Roadmaps',
        text: 'A sequence of small, safe steps from where you are to where you want to be.',
      },
      {
        icon: 'school',
        title: 'Training',
        text: 'Workshops for your developers on SQL, query tuning, security and testing.',
      },
      {
        icon: 'users',
        title: 'Second opinions',
        text: 'An independent view on a supplier’s proposal or an architecture before you sign.',
      },
    ],
  },
];

/** The summaries (the header menu, the footer and the home cards). */
export const services: readonly ServiceSummary[] = serviceDetails.map(({ id, name, summary }) => ({
  id,
  name,
  summary,
}));

// The address of a service's page; with the summaries, which the shell loads without the services' pages.
export { servicePath } from '#common/content/service-summaries.ts';

/** Spec 001 §2: the service of an id; an unknown or missing id selects the first. */
export function serviceFor(id: string | undefined): Service {
  return serviceDetails.find((service) => service.id === id) ?? (serviceDetails[0] as Service);
}
