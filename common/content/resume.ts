/**
 * The founder's resume (spec 001 §2 Resume, §3 Resume, Work entry, Education entry, Skill group). Static content
 * (spec 001 §7); the page loads this file on its own, which is its loading state.
 */
import { NEWS_AUTHOR } from '#common/content/news.ts';

export interface WorkEntry {
  company: string;
  position: string;
  /** YYYY-MM */
  startDate: string;
  /** YYYY-MM, or null while it is the current position. */
  endDate: string | null;
  tasks: readonly string[];
}

export interface EducationEntry {
  school: string;
  degree: string;
  /** YYYY */
  startDate: string;
  /** YYYY */
  endDate: string;
  summary: string;
}

export interface SkillGroup {
  heading: string;
  values: readonly string[];
}

export interface Resume {
  name: string;
  title: string;
  summary: string;
  email: string;
  phone: string;
  location: string;
  link: { label: string; href: string };
  works: readonly WorkEntry[];
  educations: readonly EducationEntry[];
  skills: readonly SkillGroup[];
  softSkills: readonly string[];
  achievements: readonly string[];
  interests: readonly string[];
}

export const resume: Resume = {
  name: NEWS_AUTHOR,
  title: 'Founder and Principal Database Engineer',
  summary:
    'Database engineer with fifteen years of designing, tuning and operating relational databases for retailers, ' +
    'clinics, logistics firms and software companies. I founded our consultancy to give small businesses the kind ' +
    'of careful data work usually reserved for large ones, and I lead the team that builds DBUI, our browser-based ' +
    'database tool. I care about correct data, plain explanations and systems that the people who use them can ' +
    'look after.',
  email: 'jordan.ellis@dbui.example',
  phone: '+1 (503) 555-0142',
  location: 'Portland, Oregon, USA',
  link: { label: 'dbui.example', href: 'https://dbui.example' },
  works: [
    {
      company: 'DBUI Consulting',
      position: 'Founder and Principal Database Engineer',
      startDate: '2021-03',
      endDate: null,
      tasks: [
        'Founded the consultancy and lead a team of four engineers on database, cloud and application projects.',
        'Designed DBUI, a browser tool to browse, edit and export PostgreSQL, MySQL/MariaDB, SQLite and SQL Server tables.',
        'Led more than thirty client assessments, each ending in a written, costed plan.',
        'Moved a regional retailer from twelve spreadsheets to one PostgreSQL database without a day of downtime.',
      ],
    },
    {
      company: 'Harbor Logistics',
      position: 'Lead Database Administrator',
      startDate: '2016-06',
      endDate: '2021-02',
      tasks: [
        'Ran the PostgreSQL and SQL Server estate behind tracking for 40,000 shipments a day.',
        'Cut the nightly reporting window from six hours to forty minutes through indexing and query rewrites.',
        'Introduced reviewed, numbered schema migrations and tested restores every month.',
      ],
    },
    {
      company: 'Northline Health Clinics',
      position: 'Database Developer',
      startDate: '2012-09',
      endDate: '2016-05',
      tasks: [
        'Built the scheduling and billing database for nine clinics on MySQL, later moved to MariaDB.',
        'Wrote the audit trail that recorded every change to patient appointments.',
        'Trained front-desk staff on the reporting tools and wrote their handbook.',
      ],
    },
    {
      company: 'Brightside Software',
      position: 'Junior Software Developer',
      startDate: '2010-07',
      endDate: '2012-08',
      tasks: [
        'Maintained order-processing features in a web shop used by two hundred small retailers.',
        'Wrote the first automated tests for the shop\u2019s database layer.',
      ],
    },
  ],
  educations: [
    {
      school: 'Oregon State University',
      degree: 'M.S. Computer Science',
      startDate: '2013',
      endDate: '2015',
      summary: 'Part-time while working; thesis on cost-based query planning for skewed data.',
    },
    {
      school: 'Portland State University',
      degree: 'B.S. Computer Science',
      startDate: '2006',
      endDate: '2010',
      summary:
        'Databases, operating systems and networks; teaching assistant for the introductory databases course.',
    },
    {
      school: 'PostgreSQL Community Training',
      degree: 'Certificate, PostgreSQL Administration',
      startDate: '2017',
      endDate: '2017',
      summary: 'Replication, backup and recovery, monitoring and performance tuning.',
    },
  ],
  skills: [
    { heading: 'Databases', values: ['PostgreSQL', 'MySQL', 'MariaDB', 'SQL Server', 'SQLite', 'Redis'] },
    { heading: 'Languages', values: ['SQL', 'TypeScript', 'Python', 'C#', 'Bash'] },
    { heading: 'Web and applications', values: ['React', 'Node.js', 'Fastify', 'ASP.NET Core', 'REST APIs'] },
    {
      heading: 'Cloud and operations',
      values: ['AWS', 'Azure', 'Docker', 'Linux', 'Terraform', 'GitHub Actions'],
    },
    {
      heading: 'Data practice',
      values: ['Schema design', 'Query tuning', 'Migrations', 'Backup and recovery', 'Access control'],
    },
  ],
  softSkills: [
    'Clear writing',
    'Explaining technical trade-offs to non-engineers',
    'Estimating honestly',
    'Mentoring',
    'Listening before proposing',
    'Calm incident handling',
    'Prioritising',
    'Working with remote teams',
    'Saying no when the answer is no',
  ],
  achievements: [
    'Founded DBUI Consulting and grew it to a team of five with clients in three countries.',
    'Designed and shipped DBUI, our browser-based database tool.',
    'Reduced a logistics company\u2019s nightly reporting time by 89%.',
    'Led three database migrations of over a terabyte each with no data loss.',
    'Spoke at two regional PostgreSQL user group meetings on practical indexing.',
    'Contributed bug fixes and documentation to open-source database tools.',
    'Mentored six junior developers who now work as database and backend engineers.',
  ],
  interests: [
    'Open-source software',
    'Query planners',
    'Data visualisation',
    'Teaching and mentoring',
    'Hiking the Cascades',
    'Cycling',
    'Woodworking',
    'Chess',
    'Science fiction',
    'Home coffee roasting',
  ],
};

/**
 * The interests in two columns (spec 001 §9): split in halves, the first half taking the middle item of an odd
 * count. The original's second column dropped its last item (a slice off by one): §2 promises ten interests, so all
 * ten are shown, as the spec README asks where the original had defects.
 */
export function splitInterests(interests: readonly string[]): {
  first: readonly string[];
  second: readonly string[];
} {
  const half = Math.ceil(interests.length / 2);
  return { first: interests.slice(0, half), second: interests.slice(half) };
}
