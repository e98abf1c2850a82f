/*
 * Titan's built-in answers (issue 16): a full-text index (MiniSearch, BM25) over the site's passages
 * (./corpus.ts), the retrieval the model path also uses, and the answers Titan gives with no language model: the best
 * passages as short excerpts with links to their pages, or a plain "I do not know" with the contact page.
 */
import MiniSearch, { type SearchResult } from 'minisearch';
import { SUPPORT_EMAIL } from '#common/content/site.ts';
import type { ChatSource } from '#common/contract/chat.ts';
import { CHAT_MESSAGE_LIMIT } from '#common/limits.ts';
import type { Answer } from '#server/features/chat/answer.ts';
import { buildCorpus, type CorpusPassage } from './corpus.ts';
import { porterStem } from './stemmer.ts';

/** A passage retrieved for a question, with its relevance (higher is better). */
export interface Passage {
  id: string;
  title: string;
  path: string;
  text: string;
  score: number;
}

/*
 * Calibrated on the quality table (quality.test.ts), the recall table and its off-topic questions (recall.test.ts):
 * a best score below MIN_SCORE, or best passages that matched under MIN_COVERAGE of the question's words (see
 * coverage()), is a guess, not an answer. With the synonyms, typo correction and general words below, on-topic
 * questions of those tables reach coverage 0.53-1; the off-topic ones at most 0.47 (most under 0.3).
 */
const MIN_SCORE = 5;
const MIN_COVERAGE = 0.5;
/** How many of the best results count towards the coverage of a question. */
const COVERAGE_RESULTS = 3;
/** Passages scoring under this share of the best one are noise. */
const RELATIVE_CUT = 0.45;
/** The longest excerpt of one passage in a built-in answer, in characters. */
export const EXCERPT_MAX = 400;
/** At most this many excerpts from one page in a built-in answer. */
const PER_PAGE = 2;

const stopWords = new Set(
  (
    'a about above after again all also am an and any are as at be because been before being below between both ' +
    'but by can could did do does doing done down during each few for from further get gets got had has have ' +
    'having he her here hers him his how i if in into is it its itself just know let like me might more most ' +
    'much must my myself need no nor not now of off on once one only or other our ours out over own please ' +
    'same she should so some such tell than that the their theirs them then there these they this those ' +
    'through to too under until up us use very want was way we were what when where which while who whom why ' +
    'will with would yes you your yours yourself guys anything something someone thing things really possible ' +
    'able there s t ll re ve d m anything everything nothing stuff kind sort lot lots forever always ever never ' +
    'take takes taking make makes making go going goes get getting give gives giving put today tomorrow ' +
    'yesterday soon still even maybe perhaps actually basically quite folks ok okay hey many isn aren don doesn ' +
    'didn wasn weren haven hasn couldn wouldn shouldn'
  ).split(' '),
);

/** Words that thank or take leave (a small-talk message with one of them is answered 'you are welcome'). */
const thanksWords = new Set('thanks thank thx ty cheers appreciated bye goodbye later'.split(' '));

/** Words that carry nothing but courtesy, left out of what is looked up. */
const greetingWords = new Set(
  'hi hello hey hiya howdy greetings yo thanks thank thx ty cheers bye goodbye titan appreciated'.split(' '),
);

/** Words that only greet, thank or take leave: a message of nothing else gets the small-talk reply. */
const smallTalkWords = new Set(
  (
    'hi hello hey hiya howdy greetings yo morning afternoon evening good day thanks thank thx ty cheers great ' +
    'ok okay cool nice awesome bye goodbye later see titan there again much lot appreciated helpful perfect ' +
    'how are doing today fine well'
  ).split(' '),
);

/** Lowercase words of a text, apostrophes and accents folded. */
function words(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/['’]s\b/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 1);
}

/** A word's stem (Porter): 'migrate', 'migrating' and 'migration' meet, as do 'exports' and 'export'. */
export function stem(word: string): string {
  return porterStem(word);
}

/** The index's terms of a text: words without stop words, stemmed. */
function terms(text: string): string[] {
  return words(text)
    .filter((word) => !stopWords.has(word))
    .map(stem);
}

/*
 * Words visitors use that the pages do not, and what the pages say instead (keys and values are raw words; both
 * pass through stem()). Expansions count less than the visitor's own words.
 */
const synonyms: Readonly<Record<string, readonly string[]>> = {
  price: ['cost', 'prices', 'buy'],
  pricing: ['price', 'cost', 'buy'],
  cost: ['price', 'prices'],
  expensive: ['cost', 'price'],
  cheap: ['cost', 'price'],
  pay: ['cost', 'price', 'buy'],
  purchase: ['buy', 'price'],
  fee: ['cost', 'price'],
  licence: ['price', 'licensed'],
  license: ['price', 'licensed'],
  '2fa': ['two-factor', 'factor', 'passkey'],
  mfa: ['two-factor', 'factor', 'passkey'],
  otp: ['code', 'authenticator'],
  totp: ['authenticator', 'code'],
  postgres: ['postgresql'],
  pg: ['postgresql'],
  mssql: ['sql', 'server'],
  mysql: ['mariadb'],
  oracle: ['engine'],
  excel: ['xlsx', 'csv', 'spreadsheet'],
  spreadsheet: ['excel', 'spreadsheets'],
  download: ['export'],
  mail: ['email'],
  ai: ['language', 'model', 'assistant'],
  ml: ['ai', 'language', 'model'],
  llm: ['language', 'model', 'ai'],
  gpt: ['language', 'model', 'ai'],
  chatgpt: ['language', 'model', 'ai'],
  chatbot: ['assistant', 'chat', 'ai'],
  chatbots: ['assistant', 'chat', 'ai'],
  machine: ['ai'],
  register: ['sign', 'signup', 'account'],
  registration: ['sign', 'signup', 'account'],
  signup: ['sign', 'account'],
  login: ['sign'],
  log: ['sign'],
  logging: ['sign'],
  logged: ['sign'],
  trial: ['free', 'try', 'demonstration'],
  demo: ['demonstration'],
  learning: ['ai', 'training'],
  ms: ['microsoft'],
  microsoft: ['sql', 'server'],
  reach: ['contact'],
  phone: ['contact'],
  talk: ['contact', 'call'],
  tracking: ['cookie', 'analytics'],
  track: ['cookie', 'analytics'],
  gdpr: ['privacy', 'personal', 'information'],
  personal: ['information', 'privacy'],
  aws: ['cloud'],
  azure: ['cloud'],
  gcp: ['cloud'],
  kubernetes: ['cloud', 'containers'],
  iphone: ['mobile', 'phone'],
  android: ['mobile', 'phone'],
  app: ['application'],
  apps: ['applications'],
  founder: ['resume'],
  ceo: ['founder', 'resume'],
  owner: ['founder'],
  background: ['resume', 'experience'],
  github: ['repository', 'source', 'open'],
  gitlab: ['repository', 'source', 'open'],
  code: ['source'],
  slow: ['performance', 'tuning', 'fast'],
  speed: ['performance', 'fast', 'slow'],
  faster: ['performance', 'fast', 'tuning'],
  reply: ['answer'],
  respond: ['answer'],
  response: ['answer'],
  quickly: ['answer', 'usually'],
  located: ['based', 'countries'],
  location: ['based', 'countries'],
  office: ['based'],
  country: ['countries', 'based'],
  abroad: ['countries'],
  jurisdiction: ['law', 'governing'],
  legal: ['law', 'terms'],
  remove: ['delete'],
  erase: ['delete'],
  staff: ['team'],
  employees: ['team'],
  restrict: ['permissions', 'rights'],
  permission: ['permissions', 'roles'],
  access: ['permissions', 'rights'],
  backup: ['backups', 'restore'],
  sprint: ['cycles', 'agile'],
  sprints: ['cycles', 'agile'],
  scrum: ['agile'],
  hosting: ['host', 'server'],
  install: ['host', 'server'],
  // Visitors' words for what the pages call otherwise (added with the recall table, recall.test.ts).
  hire: ['contact', 'consultation', 'engineer'],
  hiring: ['contact', 'consultation', 'engineer'],
  sluggish: ['slow', 'performance'],
  laggy: ['slow', 'performance'],
  lag: ['slow', 'performance'],
  grew: ['grows', 'large'],
  grow: ['grows', 'large'],
  growing: ['grows', 'large'],
  huge: ['large', 'millions'],
  massive: ['large', 'millions'],
  enormous: ['large', 'millions'],
  million: ['millions', 'large'],
  billion: ['millions', 'large'],
  outage: ['disaster', 'recovery', 'online'],
  outages: ['disaster', 'recovery', 'online'],
  downtime: ['disaster', 'recovery', 'online'],
  crash: ['disaster', 'recovery'],
  failover: ['disaster', 'recovery', 'region'],
  bill: ['cost', 'budget'],
  billing: ['cost', 'budget'],
  invoice: ['cost', 'budget'],
  spend: ['cost', 'budget'],
  spending: ['cost', 'budget'],
  lower: ['cost', 'budget'],
  reduce: ['cost', 'budget'],
  website: ['web', 'site'],
  websites: ['web', 'site'],
  webpage: ['web', 'site'],
  blind: ['accessible', 'screen', 'reader'],
  visually: ['accessible', 'screen', 'reader'],
  impaired: ['accessible', 'screen', 'reader'],
  disability: ['accessible', 'accessibility'],
  disabilities: ['accessible', 'accessibility'],
  a11y: ['accessible', 'accessibility'],
  agency: ['consultancy', 'team'],
  consultancy: ['consultancy', 'team'],
  type: ['write', 'messages'],
  typed: ['write', 'messages'],
  hourly: ['cost', 'price'],
  rate: ['cost', 'price'],
  rates: ['cost', 'price'],
  hold: ['keep', 'store'],
  lost: ['lose', 'recovery'],
  lose: ['recovery'],
  locked: ['recovery', 'sign'],
  teach: ['training', 'workshops'],
  teaching: ['training', 'workshops'],
  course: ['training', 'workshops'],
  courses: ['training', 'workshops'],
  compliant: ['privacy', 'rights', 'law'],
  compliance: ['privacy', 'rights', 'law'],
  sms: ['text', 'message', 'phone'],
  reset: ['forgot', 'password'],
  forgotten: ['forgot', 'password'],
  artificial: ['ai'],
  intelligence: ['ai'],
  premise: ['own', 'servers'],
  premises: ['own', 'servers'],
  onprem: ['own', 'servers'],
  history: ['audit', 'trail'],
  audit: ['review', 'checked'],
  users: ['people', 'visitors'],
};

interface Knowledge {
  search: MiniSearch<CorpusPassage>;
  passages: ReadonlyMap<string, CorpusPassage>;
  /** How many passages hold each term. */
  documentFrequency: ReadonlyMap<string, number>;
  /** The pages' own words (and the synonyms' keys) with how often they occur: what a misspelt word is corrected to. */
  vocabulary: ReadonlyMap<string, number>;
}

let knowledge: Knowledge | undefined;

/** Sentences of a passage (a full stop, question or exclamation mark followed by a capital or digit). */
function sentencesOf(text: string): string[] {
  return text.split(/(?<=[.!?])\s+(?=["“‘(]?[\p{Lu}\p{N}])/u).filter((part) => part.length > 0);
}

/** The index, built on first use and kept for the life of the process. */
function theKnowledge(): Knowledge {
  if (knowledge) return knowledge;
  const corpus = buildCorpus();
  const search = new MiniSearch<CorpusPassage>({
    fields: ['title', 'section', 'text'],
    idField: 'id',
    processTerm: (term) => {
      if (stopWords.has(term)) return null;
      return stem(term);
    },
    tokenize: (text) => words(text),
    searchOptions: {
      boost: { title: 1.5, section: 2, text: 1 },
      combineWith: 'OR',
      prefix: (term) => term.length >= 4,
      fuzzy: (term) => (term.length >= 6 ? 0.15 : false),
      weights: { prefix: 0.4, fuzzy: 0.3 },
    },
  });
  search.addAll(corpus);
  const passages = new Map(corpus.map((passage) => [passage.id, passage]));
  const documentFrequency = new Map<string, number>();
  for (const passage of corpus) {
    for (const term of new Set(terms(`${passage.title} ${passage.section} ${passage.text}`))) {
      documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    }
  }
  const vocabulary = new Map<string, number>(Object.keys(synonyms).map((word) => [word, 1]));
  for (const passage of corpus) {
    for (const word of words(`${passage.title} ${passage.section} ${passage.text}`)) {
      if (!stopWords.has(word) && !/\d/.test(word)) vocabulary.set(word, (vocabulary.get(word) ?? 0) + 1);
    }
  }
  knowledge = { search, passages, documentFrequency, vocabulary };
  return knowledge;
}

/*
 * Words that say what kind of question it is (a request for help, a project, a service) rather than what it is
 * about: they are looked up, but weigh little in coverage(), so 'Do you do AI projects?' is a question about AI.
 */
const generalWords = new Set(
  (
    'help helps helping project projects service services offer offers offering provide provides work works ' +
    'working worked handle handles handling new next year years start started starting step steps past since ' +
    'happen happens happened bring really way high best good better whole company'
  ).split(' '),
);
/** The share of its weight a general word keeps in coverage(). */
const GENERAL_WEIGHT = 0.25;

/** Visitors' phrases and the words the pages use for the same thing. */
const phrases: readonly (readonly [RegExp, string])[] = [
  [
    /\b(how long have you been )?(in business|been around|been operating|been doing this)\b/g,
    ' decade experience ',
  ],
  [/\bsign[- ]?on\b/g, ' sign '],
];

/**
 * Damerau-Levenshtein distance of at most one: equal, one letter added, dropped or changed, or two neighbours
 * swapped ('chnaged', 'wrok').
 */
function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  const restA = a.slice(start, endA);
  const restB = b.slice(start, endB);
  if (restA.length <= 1 && restB.length <= 1) return true;
  return restA.length === 2 && restB.length === 2 && restA[0] === restB[1] && restA[1] === restB[0];
}

/**
 * A misspelt word corrected to the pages' most frequent word one edit away, or null. Only words the pages and the
 * synonyms do not know, of at least four letters, are corrected (under six letters only for swapped letters, 'wrok').
 */
function corrected(word: string): string | null {
  const { vocabulary, documentFrequency } = theKnowledge();
  if (word.length < 4 || /\d/.test(word) || vocabulary.has(word) || synonyms[word] !== undefined) return null;
  if ((documentFrequency.get(stem(word)) ?? 0) > 0) return null;
  let best: string | null = null;
  let bestCount = 0;
  for (const [candidate, count] of vocabulary) {
    if (count <= bestCount || Math.abs(candidate.length - word.length) > 1) continue;
    // Short words are corrected only for swapped letters: 'movie' is not a misspelt 'move', nor 'paris' 'parts'.
    const swapped =
      candidate.length === word.length && [...candidate].sort().join('') === [...word].sort().join('');
    if (word.length < 6 && !swapped) continue;
    if (withinOneEdit(word, candidate)) {
      best = candidate;
      bestCount = count;
    }
  }
  return best;
}

interface Group {
  /** The visitor's word, stemmed (or the word it was corrected to), then the terms it expands to. */
  terms: readonly string[];
  /** A word that says what kind of question it is, not what about (generalWords). */
  general: boolean;
  /** A misspelt word, corrected. */
  corrected: boolean;
}

interface Question {
  /** The visitor's own words, each with the terms it expands to. */
  groups: readonly Group[];
  /** Own terms and their expansions. */
  all: readonly string[];
  smallTalk: 'greeting' | 'thanks' | null;
}

/** Whether the message is only a greeting, thanks or goodbye (answered in kind, without a search). */
export const isSmallTalk = (question: string): boolean => parseQuestion(question).smallTalk !== null;

function parseQuestion(question: string): Question {
  const raw = words(question);
  let text = question.toLowerCase();
  for (const [pattern, replacement] of phrases) text = text.replace(pattern, replacement);
  const lookedUp = words(text).filter((word) => !stopWords.has(word));
  // 'Hi Titan, …' is a question with a greeting: the greeting is not part of what to look up, unless nothing else is
  // ('What is Titan?').
  const withoutGreeting = lookedUp.filter((word) => !greetingWords.has(word));
  const content = [...new Set(withoutGreeting.length > 0 ? withoutGreeting : lookedUp)];
  const groups = content.map((word): Group => {
    const fixed = corrected(word);
    const known = fixed ?? word;
    const expansions = (synonyms[known] ?? []).flatMap((synonym) => terms(synonym));
    return {
      terms: [...new Set([stem(known), ...expansions])],
      general: generalWords.has(known),
      corrected: fixed !== null,
    };
  });
  const all = [...new Set(groups.flatMap((group) => group.terms))];
  const courtesy = raw.filter((word) => smallTalkWords.has(word) && word !== 'titan');
  const onlySmallTalk =
    raw.length > 0 &&
    raw.length <= 8 &&
    courtesy.length > 0 &&
    raw.every((word) => smallTalkWords.has(word) || stopWords.has(word));
  const thanks = raw.some((word) => thanksWords.has(word));
  const smallTalk = onlySmallTalk ? (thanks ? 'thanks' : 'greeting') : null;
  return { groups, all, smallTalk };
}

function toPassage(passage: CorpusPassage, score: number): Passage {
  return { id: passage.id, title: passage.title, path: passage.path, text: passage.text, score };
}

/**
 * How much of the question the best passages answer: the share of the visitor's words (weighted by how rare they
 * are in the site, a word the site never uses and Titan cannot expand weighing most, a general word little) that
 * the top results matched, directly or through an expansion. Off-topic questions match a common word or two and
 * leave their real subject unmatched. Numbers weigh nothing ('50 million rows' is about the rows).
 */
function coverage(question: Question, results: readonly SearchResult[]): number {
  const { passages, documentFrequency } = theKnowledge();
  const matched = new Set(results.slice(0, COVERAGE_RESULTS).flatMap((result) => result.queryTerms));
  const idf = (frequency: number) => Math.log(1 + passages.size / (frequency + 0.5));
  let total = 0;
  let covered = 0;
  for (const group of question.groups) {
    const own = group.terms[0] ?? '';
    if (/^\d+$/.test(own)) continue;
    const frequency = documentFrequency.get(own) ?? 0;
    const expansions = group.terms.slice(1).map((term) => documentFrequency.get(term) ?? 0);
    let weight: number;
    // A word the site never uses is most often the question's real subject (weather, recipe): it weighs double,
    // unless Titan knows the site's words for it (then it weighs as the commonest of them).
    if (frequency > 0) weight = idf(frequency);
    else if (expansions.some((count) => count > 0)) weight = idf(Math.max(...expansions));
    else weight = 2 * idf(0);
    if (group.general) weight *= GENERAL_WEIGHT;
    total += weight;
    if (group.terms.some((term) => matched.has(term))) covered += weight;
  }
  return total === 0 ? 0 : covered / total;
}

function rank(question: Question): { results: SearchResult[]; confident: boolean; coverage: number } {
  if (question.smallTalk !== null || question.all.length === 0)
    return { results: [], confident: false, coverage: 0 };
  const { search } = theKnowledge();
  const own = new Set(question.groups.filter((group) => !group.general).map((group) => group.terms[0]));
  const results = search.search(question.all.join(' '), {
    processTerm: (term) => term,
    // The visitor's own words count most; expansions and general words ('help', 'project') less.
    boostTerm: (term) => (own.has(term) ? 1 : 0.5),
  });
  const best = results[0];
  if (!best) return { results: [], confident: false, coverage: 0 };
  const share = coverage(question, results);
  return { results, confident: best.score >= MIN_SCORE && share >= MIN_COVERAGE, coverage: share };
}

/**
 * The passages that best answer a question (at most `limit`, best first, without those far below the best), and
 * whether they are good enough to answer with. Greetings and empty questions give none.
 */
export function retrieve(question: string, limit = 3): { passages: Passage[]; confident: boolean } {
  const { results, confident } = rank(parseQuestion(question));
  const { passages } = theKnowledge();
  const top = results[0]?.score ?? 0;
  const chosen = results
    .filter((result) => result.score >= top * RELATIVE_CUT)
    .slice(0, Math.max(0, limit))
    .flatMap((result) => {
      const passage = passages.get(result.id as string);
      return passage ? [toPassage(passage, result.score)] : [];
    });
  return { passages: chosen, confident };
}

/** Cut a text at a word boundary to at most `max` characters, marking the cut. */
function cutAt(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[,;:]$/, '')}…`;
}

/** The sentences of a passage that say most about the question, whole sentences, at most EXCERPT_MAX characters. */
export function excerpt(passageText: string, questionTerms: readonly string[]): string {
  const sentences = sentencesOf(passageText).map((text) => ({ text, terms: new Set(terms(text)) }));
  if (sentences.length === 0) return '';
  const hits = sentences.map(
    (sentence) =>
      questionTerms.filter((term) => [...sentence.terms].some((word) => word.startsWith(term))).length,
  );
  let best = 0;
  hits.forEach((count, index) => {
    if (count > (hits[best] ?? 0)) best = index;
  });
  const first = sentences[best];
  if (!first) return '';
  if (first.text.length >= EXCERPT_MAX) return cutAt(first.text, EXCERPT_MAX);
  let from = best;
  let to = best;
  let length = first.text.length;
  // Grow forwards first (the sentences after a hit usually explain it), then backwards.
  for (;;) {
    const next = sentences[to + 1];
    if (next && length + 1 + next.text.length <= EXCERPT_MAX) {
      to += 1;
      length += 1 + next.text.length;
      continue;
    }
    const previous = sentences[from - 1];
    if (previous && length + 1 + previous.text.length <= EXCERPT_MAX) {
      from -= 1;
      length += 1 + previous.text.length;
      continue;
    }
    break;
  }
  return sentences
    .slice(from, to + 1)
    .map((sentence) => sentence.text)
    .join(' ');
}

/** A Markdown link to a site page, as the widget renders it. */
export function pageLink(source: ChatSource): string {
  return `[${source.title.replace(/[[\]]/g, '')}](${source.path})`;
}

const contactOffer =
  `You can ask the team directly: send a message from [Contact us](/contact-us) or write to ${SUPPORT_EMAIL}, ` +
  'and a person will answer, usually within two working days.';

/** The reply when the site's pages do not answer the question. */
export const notKnownText =
  'I do not know the answer to that: I can only answer from the pages of this site, and none of them covers it. ' +
  contactOffer;

const whatICanAnswer =
  'Ask me about our services (databases, cloud, custom and web applications, AI), about DBUI, our news, privacy ' +
  'and terms, or how to reach us, and I will answer from the pages of this site with links to them.';

/** The reply to a greeting. */
export const greetingText = `Hello! I am Titan. ${whatICanAnswer}`;

/** The reply to thanks or goodbye. */
export const thanksText =
  'You are welcome! If anything else comes up, ask me here, or write to the team from [Contact us](/contact-us).';

/** Titan's answer without a language model: the best passages as short excerpts, each with a link to its page. */
export function builtInAnswer(question: string): Answer {
  const parsed = parseQuestion(question);
  if (parsed.smallTalk !== null) {
    return {
      text: parsed.smallTalk === 'thanks' ? thanksText : greetingText,
      origin: 'small-talk',
      sources: [],
    };
  }
  const { passages, confident } = retrieve(question, 6);
  if (!confident || passages.length === 0) return { text: notKnownText, origin: 'built-in', sources: [] };

  const perPage = new Map<string, number>();
  const chosen: Passage[] = [];
  for (const passage of passages) {
    const count = perPage.get(passage.path) ?? 0;
    if (count >= PER_PAGE) continue;
    perPage.set(passage.path, count + 1);
    chosen.push(passage);
    if (chosen.length === 3) break;
  }

  const sources: ChatSource[] = [];
  for (const passage of chosen) {
    if (!sources.some((source) => source.path === passage.path)) {
      sources.push({ title: passage.title, path: passage.path });
    }
  }
  const { passages: corpus } = theKnowledge();
  const parts = chosen.map((passage) => {
    // An FAQ answer ('No. Titan is…') reads right only after its question.
    const question = passage.id.startsWith('faq:') ? `${corpus.get(passage.id)?.section ?? ''} ` : '';
    return `${question}${excerpt(passage.text, parsed.all)}\n${pageLink(passage)}`;
  });
  return {
    text: `Here is what our site says about that:\n\n${parts.join('\n\n')}`,
    origin: 'built-in',
    sources,
  };
}

/** Titan's first message when the widget opens (spec 001 §2: the introduction request). */
export function introduction(): Answer {
  return {
    text:
      'Hello, I am Titan, the assistant of this site. I can answer questions about our services (database ' +
      'management, cloud, custom applications, AI connectivity, web and mobile apps, consultations), about DBUI, ' +
      'our database browser, and about our news, our team, privacy and terms of use. My answers come from the ' +
      'pages of this site, and I link the pages I used so you can read more. A chat holds up to ' +
      `${CHAT_MESSAGE_LIMIT} of your messages; for anything else, the team is one message away at ` +
      `[Contact us](/contact-us) or ${SUPPORT_EMAIL}. What would you like to know?`,
    origin: 'introduction',
    sources: [],
  };
}
