/*
 * Titan's knowledge (issue 16): the site's own content cut into passages, each tied to the page that shows it, so
 * an answer can quote a passage and link its page. Built from common/content only: what the pages say is what Titan
 * says.
 */
import { about } from '#common/content/about.ts';
import { faq, faqAnswer } from '#common/content/faq.ts';
import { homeHero, homeOpenSource, homePromo, homeServices, homeSignUp } from '#common/content/home.ts';
import { type LegalDocument, privacyPolicy, termsOfUse } from '#common/content/legal.ts';
import { newsArticles, newsPath } from '#common/content/news.ts';
import { productDetails } from '#common/content/products.ts';
import { resume } from '#common/content/resume.ts';
import { serviceDetails, servicePath } from '#common/content/services.ts';
import type { SiteLinks } from '#common/content/site.ts';

/** One piece of a page Titan can quote. */
export interface CorpusPassage {
  /** Stable and unique, e.g. 'service:database:offer:2'. */
  id: string;
  /** The page's title, used as the link's label. */
  title: string;
  /** The part of the page (a section heading, an offer's title, an FAQ question); '' when none. */
  section: string;
  /** The site path of the page. */
  path: string;
  /** Plain text. */
  text: string;
}

const PRIVACY_PATH = '/privacy-policy';
const TERMS_PATH = '/terms-of-use';

/** Titles of the pages that have no content file of their own (FAQ answers may point at them). */
const fixedPageTitles: Readonly<Record<string, string>> = {
  '/home': 'Home',
  '/about-us': 'About Us',
  '/contact-us': 'Contact Us',
  '/resume': 'Resume',
  '/news': 'News',
  [PRIVACY_PATH]: privacyPolicy.title,
  [TERMS_PATH]: termsOfUse.title,
  '/account': 'Your account',
  '/account/signup': 'Sign Up',
  '/account/login': 'Login',
  '/account/forgotPassword': 'Forgot your password?',
};

/** The title of every site page Titan may link, by path. */
export function sitePageTitles(): ReadonlyMap<string, string> {
  const titles = new Map<string, string>(Object.entries(fixedPageTitles));
  for (const service of serviceDetails) titles.set(servicePath(service.id), service.name);
  for (const product of productDetails) titles.set(`/products/${product.id}`, product.name);
  for (const article of newsArticles) titles.set(newsPath(article), article.title);
  return titles;
}

const entities: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/** Text without HTML tags or entities, on one line: content may one day hold markup; answers are plain text. */
export function plainText(text: string): string {
  return text
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#\d+|#x[\da-f]+|[a-z]+);/gi, (whole, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X'))
        return String.fromCodePoint(parseInt(name.slice(2), 16));
      if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10));
      return entities[name.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** A sentence-ending full stop unless the text already ends with punctuation. */
function sentence(text: string): string {
  return /[.!?:;]$/.test(text) ? text : `${text}.`;
}

function legalPassages(document: LegalDocument, key: string, path: string): CorpusPassage[] {
  const passages: CorpusPassage[] = [
    { id: `${key}:intro`, title: document.title, section: '', path, text: document.intro.join(' ') },
  ];
  document.sections.forEach((section, index) => {
    const items = (section.items ?? []).map(sentence);
    passages.push({
      id: `${key}:${index}`,
      title: document.title,
      section: section.heading,
      path,
      text: [...section.paragraphs, ...items].join(' '),
    });
  });
  return passages;
}

function servicePassages(): CorpusPassage[] {
  return serviceDetails.flatMap((service) => {
    const path = servicePath(service.id);
    const base = { title: service.name, path };
    return [
      { ...base, id: `service:${service.id}:summary`, section: service.name, text: service.summary },
      {
        ...base,
        id: `service:${service.id}:description`,
        section: service.heading,
        text: service.description,
      },
      {
        ...base,
        id: `service:${service.id}:description2`,
        section: service.heading,
        text: service.description2,
      },
      ...service.offers.map((offer, index) => ({
        ...base,
        id: `service:${service.id}:offer:${index}`,
        section: offer.title,
        text: `${offer.title}: ${offer.text}`,
      })),
    ];
  });
}

function productPassages(): CorpusPassage[] {
  return productDetails.flatMap((product) => {
    const path = `/products/${product.id}`;
    const base = { title: product.name, path };
    return [
      {
        ...base,
        id: `product:${product.id}:intro`,
        section: product.heading,
        text: `${product.text} The products page says: coming soon.`,
      },
      ...product.features.map((feature, index) => ({
        ...base,
        id: `product:${product.id}:feature:${index}`,
        section: feature.title,
        text: `${feature.title}: ${feature.text}`,
      })),
      {
        ...base,
        id: `product:${product.id}:contact`,
        section: product.contact.label,
        text: `${product.contact.text} ${product.contact.label} through the Contact Us page.`,
      },
    ];
  });
}

function newsPassages(): CorpusPassage[] {
  return newsArticles.flatMap((article, articleIndex) => {
    const base = { title: article.title, path: newsPath(article) };
    return [
      {
        ...base,
        id: `news:${articleIndex}:summary`,
        section: article.subtitle,
        text: `${article.subtitle}. ${article.summary}`,
      },
      ...article.content.map((paragraph, index) => ({
        ...base,
        id: `news:${articleIndex}:${index}`,
        section: '',
        text: paragraph,
      })),
    ];
  });
}

function aboutPassages(): CorpusPassage[] {
  const base = { title: 'About Us', path: '/about-us' };
  return [
    { ...base, id: 'about:intro', section: about.heading, text: about.intro },
    ...about.story.map((text, index) => ({ ...base, id: `about:story:${index}`, section: '', text })),
    ...about.values.map((value, index) => ({
      ...base,
      id: `about:value:${index}`,
      section: `${about.valuesHeading}: ${value.title}`,
      text: `${value.title}: ${value.text}`,
    })),
    { ...base, id: 'about:founder', section: about.founderHeading, text: about.founderText },
  ];
}

function monthYear(date: string | null): string {
  return date ?? 'today';
}

function resumePassages(): CorpusPassage[] {
  const base = { title: 'Resume', path: '/resume' };
  return [
    {
      ...base,
      id: 'resume:summary',
      // The section is what a passage is about, and boosted: a job title's words ('Database Engineer') are not.
      section: resume.name,
      text: `${resume.name}, ${resume.title}, based in ${resume.location}. ${resume.summary}`,
    },
    // One passage per task and per skill group: a work entry lists unrelated facts (a migration, a tool, a team),
    // and one passage holding them all matched every question about any of them.
    ...resume.works.flatMap((work, index) =>
      work.tasks.map((task, taskIndex) => ({
        ...base,
        id: `resume:work:${index}:${taskIndex}`,
        section: '',
        text:
          `${resume.name}, ${work.position} at ${work.company} from ${work.startDate} to ` +
          `${monthYear(work.endDate)}: ${task}`,
      })),
    ),
    {
      ...base,
      id: 'resume:education',
      section: 'Education',
      text: resume.educations
        .map(
          (entry) =>
            `${entry.degree}, ${entry.school} (${entry.startDate}-${entry.endDate}): ${entry.summary}`,
        )
        .join(' '),
    },
    ...resume.skills.map((group, index) => ({
      ...base,
      id: `resume:skills:${index}`,
      section: 'Skills',
      text: `${resume.name}'s skills, ${group.heading}: ${group.values.join(', ')}.`,
    })),
    { ...base, id: 'resume:achievements', section: 'Achievements', text: resume.achievements.join(' ') },
    {
      ...base,
      id: 'resume:interests',
      section: 'Interests and soft skills',
      text: `Interests: ${resume.interests.join(', ')}. Soft skills: ${resume.softSkills.join(', ')}.`,
    },
  ];
}

function homePassages({ sourceCode }: SiteLinks): CorpusPassage[] {
  const base = { title: 'Home', path: '/home' };
  return [
    { ...base, id: 'home:hero', section: homeHero.heading, text: `${homeHero.text} ${homeHero.eyebrow}.` },
    { ...base, id: 'home:services', section: homeServices.heading, text: homeServices.text },
    {
      ...base,
      id: 'home:open-source',
      section: homeOpenSource.heading,
      text: `${homeOpenSource.heading}. ${homeOpenSource.text}${sourceCode ? ` The repository: ${sourceCode}` : ''}`,
    },
    {
      ...base,
      id: 'home:promo',
      section: homePromo.heading,
      text: `${homePromo.text} ${homePromo.points.map(sentence).join(' ')}`,
    },
    { ...base, id: 'home:sign-up', section: homeSignUp.heading, text: homeSignUp.text },
  ];
}

function faqPassages(titles: ReadonlyMap<string, string>, links: SiteLinks): CorpusPassage[] {
  return faq.map((entry, index) => {
    const title = titles.get(entry.path);
    if (title === undefined) throw new Error(`FAQ entry ${index} names an unknown page: ${entry.path}`);
    return {
      id: `faq:${index}`,
      title,
      section: entry.question,
      path: entry.path,
      text: faqAnswer(entry, links),
    };
  });
}

/** A passage that states the support contact, so 'how do I reach you' finds the address even without the FAQ. */
function contactPassage({ supportEmail }: SiteLinks): CorpusPassage {
  return {
    id: 'contact:email',
    title: 'Contact Us',
    section: 'Contact Us',
    path: '/contact-us',
    text:
      `Questions about a database, a project or DBUI? Write to us from the Contact Us page` +
      `${supportEmail ? ` or by email to ${supportEmail}` : ''}. We answer by email, usually within two working days.`,
  };
}

/** Every passage of the site, HTML stripped and whitespace collapsed; `links` are the site's outside addresses, each
 * named where it is set (the support address, the repository). */
export function buildCorpus(links: SiteLinks): CorpusPassage[] {
  const titles = sitePageTitles();
  const passages = [
    ...servicePassages(),
    ...productPassages(),
    ...newsPassages(),
    ...aboutPassages(),
    ...legalPassages(privacyPolicy, 'privacy', PRIVACY_PATH),
    ...legalPassages(termsOfUse, 'terms', TERMS_PATH),
    ...resumePassages(),
    ...homePassages(links),
    contactPassage(links),
    ...faqPassages(titles, links),
  ];
  return passages.map((passage) => ({
    ...passage,
    section: plainText(passage.section),
    text: plainText(passage.text),
  }));
}
