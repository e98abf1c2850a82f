/*
 * Titan's built-in answers (issue 16): a full-text index (MiniSearch, BM25) over the site's passages
 * (./corpus.ts), the retrieval the model path also uses, and the answers Titan gives with no language model: the best
 * passages as short excerpts with links to their pages, or a plain "I do not know" with the contact page.
 */
import MiniSearch from 'minisearch';
import { noSiteLinks, type SiteLinks } from '#common/content/site.ts';
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
 * Calibrated on the quality table (quality.test.ts), the recall table and its off-topic questions (recall.test.ts)
 * and the top-1 table (top1.test.ts, visitor-questions.json): a best score below MIN_SCORE, best passages that
 * matched under MIN_COVERAGE of the question's words (see coverage()), or none of its subject words (see
 * matchesSubject()), is a guess, not an answer. With the synonyms, typo correction and general words below, the
 * on-topic questions of those tables that Titan answers reach coverage 0.51-1; the off-topic ones at most 0.50 (most
 * under 0.45), except 'When will the new iPhone be available?' (0.91, no subject word matched) and the held-out
 * 'Which phone should I buy, iPhone or Android?' (0.65, answered with the mobile apps page).
 */
const MIN_SCORE = 5;
const MIN_COVERAGE = 0.5;
/** How many of the best results count towards the coverage of a question. */
const COVERAGE_RESULTS = 3;
/** The share of its search score a passage keeps however little of the question it matches (rank()). */
const COORDINATION_FLOOR = 0.25;
/** How many of a page's best passages count towards what the page matches (rank()). */
const PAGE_PASSAGES = 3;
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
    'didn wasn weren haven hasn couldn wouldn shouldn ' +
    // Chat spellings and words that point at no subject ('wat does it do', 'somebody else').
    'wat wut whats hw u ur r ya yall pls plz gonna wanna gotta btw somebody anybody anyone everyone everybody ' +
    'else whether ' +
    // Spelled-out amounts: like digits, they say how much, not what about ('tens of millions of rows').
    'ten tens hundred hundreds thousand thousands dozen dozens'
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

/*
 * Verbs with a particle that mean one thing together: 'sign in' and 'sign up' are one word each, so a question about
 * signing a contract ('before we sign') does not find the sign-in pages, nor 'log in' the audit log.
 */
const compounds: readonly (readonly [RegExp, string])[] = [
  [/\b(?:sign|log)(?:s|ged|ging|ed|ing)?[- ]?(?:in|on)\b/g, ' signin '],
  [/\bsign(?:s|ed|ing)?[- ]?up\b/g, ' signup '],
  [/\b(?:sign|log)(?:s|ged|ging|ed|ing)?[- ]?out\b/g, ' signout '],
];

/** Lowercase words of a text, apostrophes and accents folded, compounds joined. */
function words(text: string): string[] {
  let lower = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/['’]s\b/g, '');
  for (const [pattern, word] of compounds) lower = lower.replace(pattern, word);
  return lower.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 1);
}

/*
 * Where Porter's rules join words that mean different things ('engineers' and 'engines' are both 'engin') or miss
 * an irregular form ('built' is not 'build').
 */
const stemExceptions: Readonly<Record<string, string>> = {
  engineer: 'engineer',
  engineers: 'engineer',
  engineering: 'engineer',
  engineered: 'engineer',
  built: 'build',
};

/** A word's stem (Porter): 'migrate', 'migrating' and 'migration' meet, as do 'exports' and 'export'. */
export function stem(word: string): string {
  return stemExceptions[word] ?? porterStem(word);
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
  price: ['cost', 'prices', 'buy', 'free'],
  pricing: ['price', 'cost', 'buy', 'free'],
  cost: ['price', 'prices', 'free'],
  charge: ['cost', 'price', 'free'],
  expensive: ['cost', 'price'],
  cheap: ['cost', 'price'],
  pay: ['cost', 'price', 'buy'],
  purchase: ['buy', 'price'],
  fee: ['cost', 'price', 'free'],
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
  register: ['signup', 'account'],
  registration: ['signup', 'account'],
  signup: ['account'],
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
  big: ['large'],
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
  lose: ['lost', 'recovery'],
  locked: ['recovery', 'signin'],
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
  // Issue 32: visitors' words for what the pages call otherwise, in families (not one question's words).
  // When DBUI comes out: the product page says it is being prepared for general release.
  available: ['release'],
  availability: ['release'],
  launch: ['release'],
  launched: ['release'],
  released: ['release'],
  beta: ['release'],
  eta: ['release'],
  abort: ['cancel', 'stop'],
  halt: ['cancel', 'stop'],
  // The founder's background, in the resume's words.
  hobby: ['interests'],
  hobbies: ['interests'],
  pastime: ['interests'],
  pastimes: ['interests'],
  university: ['education'],
  college: ['education', 'university'],
  studied: ['education', 'university'],
  study: ['education', 'university'],
  qualification: ['education', 'certificate'],
  qualifications: ['education', 'certificate'],
  // People and assistants.
  bot: ['assistant', 'person'],
  bots: ['assistant', 'person'],
  robot: ['assistant', 'person'],
  human: ['person'],
  colleague: ['person', 'people'],
  colleagues: ['person', 'people'],
  coworker: ['person', 'people'],
  coworkers: ['person', 'people'],
  teammate: ['person', 'people'],
  enterprise: ['clients', 'organisations', 'businesses'],
  enterprises: ['clients', 'organisations', 'businesses'],
  corporation: ['clients', 'organisations', 'businesses'],
  corporations: ['clients', 'organisations', 'businesses'],
  customers: ['clients'],
  meeting: ['call', 'consultation'],
  meet: ['call', 'consultation'],
  maintain: ['maintenance', 'support'],
  maintains: ['maintenance', 'support'],
  maintaining: ['maintenance', 'support'],
  old: ['legacy'],
  outdated: ['legacy', 'old'],
  ancient: ['legacy', 'old'],
  // American spellings of the pages' British ones.
  organization: ['organisations'],
  organizations: ['organisations'],
  optimize: ['optimised', 'tuning'],
  optimized: ['optimised', 'tuning'],
  modernization: ['modernisation'],
  color: ['colour'],
  // The terms' words.
  liable: ['liability'],
  sue: ['disputes', 'courts', 'law'],
  lawsuit: ['disputes', 'courts', 'law'],
  scanner: ['scan', 'probe', 'security'],
  pentest: ['scan', 'probe', 'security'],
  penetration: ['scan', 'probe', 'security'],
  vulnerability: ['scan', 'probe', 'security'],
  vulnerabilities: ['scan', 'probe', 'security'],
  hack: ['security', 'probe'],
  hacking: ['security', 'probe'],
  // A lost second factor: the recovery codes.
  wipe: ['lose', 'recovery'],
  wiped: ['lose', 'recovery'],
  stolen: ['lose', 'recovery'],
  // Database care.
  watch: ['monitoring', 'alerts'],
  monitor: ['monitoring', 'alerts'],
  warn: ['alerts'],
  warning: ['alerts'],
  warnings: ['alerts'],
  notify: ['alerts'],
  choke: ['slow', 'large'],
  crawl: ['slow', 'performance'],
  move: ['migration'],
  moving: ['migration'],
  rebuild: ['recreated', 'code'],
  rebuilt: ['recreated', 'code'],
  recreate: ['recreated', 'code'],
  reproducible: ['recreated', 'code'],
  prem: ['own', 'servers'],
  programmer: ['developers', 'programming'],
  programmers: ['developers', 'programming'],
  coder: ['developers', 'programming'],
  coders: ['developers', 'programming'],
  details: ['information'],
  info: ['information'],
  headquarters: ['based'],
  hq: ['based'],
};

/** The synonyms by their keys' stems, so 'loses' and 'losing' find what 'lose' expands to. */
let synonymsByStem: ReadonlyMap<string, readonly string[]> | undefined;

/** The index terms a visitor's word expands to: its own entry, or the entries of the words with its stem. */
function synonymsOf(word: string): string[] {
  const own = synonyms[word];
  if (own) return own.flatMap((synonym) => terms(synonym));
  if (!synonymsByStem) {
    const byStem = new Map<string, string[]>();
    for (const [key, values] of Object.entries(synonyms)) {
      const list = byStem.get(stem(key)) ?? [];
      list.push(...values.flatMap((synonym) => terms(synonym)));
      byStem.set(stem(key), list);
    }
    synonymsByStem = byStem;
  }
  return [...new Set(synonymsByStem.get(stem(word)) ?? [])];
}

interface Knowledge {
  search: MiniSearch<CorpusPassage>;
  passages: ReadonlyMap<string, CorpusPassage>;
  /** How many passages hold each term. */
  documentFrequency: ReadonlyMap<string, number>;
  /** The pages' own words (and the synonyms' keys) with how often they occur: what a misspelt word is corrected to. */
  vocabulary: ReadonlyMap<string, number>;
  /** The stems of the words the pages write capitalised somewhere ('DBUI', 'Excel', 'Access'). */
  names: ReadonlySet<string>;
}

let knowledge: Knowledge | undefined;

/** Sentences of a passage (a full stop, question or exclamation mark followed by a capital or digit). */
function sentencesOf(text: string): string[] {
  return text.split(/(?<=[.!?])\s+(?=["“‘(]?[\p{Lu}\p{N}])/u).filter((part) => part.length > 0);
}

/**
 * The index, built on first use and kept for the life of the process. It is built without the site's outside
 * addresses, so what the operator sets there (an address is a few odd words) never moves what a question finds;
 * the passages' texts given out name them (passageTexts).
 */
function theKnowledge(): Knowledge {
  if (knowledge) return knowledge;
  const corpus = buildCorpus(noSiteLinks);
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
  const names = new Set<string>();
  for (const passage of corpus) {
    for (const word of `${passage.title} ${passage.section} ${passage.text}`.match(/\p{Lu}[\p{L}\p{N}]*/gu) ??
      []) {
      names.add(stem(word.toLowerCase()));
    }
  }
  knowledge = { search, passages, documentFrequency, vocabulary, names };
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
  [/\b(look|looking|looked) (it |them |this |that )?over\b/g, ' review '],
  // Issue 32: idioms whose words alone say little.
  [/\b(get|gets|getting|hear|hears) back to (me|us)\b/g, ' answer '],
  [/\bhear back\b/g, ' answer '],
  [/\bwhere (are|is) (you|your \w+)( located| based)?\b/g, ' based '],
  [/\b(make|create|open|set up|get) (an? |my |new )*account\b/g, ' signup account '],
  [/\bon[- ]?prem(ise|ises)?\b/g, ' own servers '],
  [/\bpass(es|ed|ing)? (\w+ ){0,3}on to\b/g, ' share '],
  [/\byour (e-?mail|phone|telephone)( address| number)?\b/g, ' contact email '],
  [/\bhow (many|big|large) (people|employees|staff|engineers|developers|persons)\b/g, ' team '],
  [/\bhow (big|large) is (your|the) (team|company|firm|business)\b/g, ' team '],
  [
    /\bwhat (kind of |sort of |type of )?(work |services |things )?(does|do) (you|your (company|team|firm|business))( guys)? (do|offer|provide)\b/g,
    ' services offer ',
  ],
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
  /** The visitor's word as looked up (corrected if misspelt), before stemming. */
  word: string;
  /** The visitor's word, stemmed (or the word it was corrected to), then the terms it expands to. */
  terms: readonly string[];
  /** A word that says what kind of question it is, not what about (generalWords). */
  general: boolean;
  /** A misspelt word, corrected. */
  corrected: boolean;
  /**
   * Written as a name (capitalised inside a sentence, or in capitals) that the pages never write as one: another
   * company's or place's name ('Netflix', 'NBA', 'Windows'), even where the pages use the common word (a window).
   */
  foreignName: boolean;
}

/**
 * The words of a question written as names (lowercased): capitalised but not first in a sentence, or in capitals.
 * A question in title case ('How Do I Export A Table') has none.
 */
function namesIn(question: string): Set<string> {
  const names = new Set<string>();
  let first = true;
  let count = 0;
  for (const token of question.split(/[^\p{L}\p{N}'’.!?]+/u)) {
    const word = token.replace(/['’]s?$|[.!?]+$/gu, '');
    if (word.length === 0) continue;
    count += 1;
    if (word.length > 1 && (/^\p{Lu}{2,}$/u.test(word) || (!first && /^\p{Lu}/u.test(word))))
      names.add(word.toLowerCase());
    first = /[.!?]$/.test(token);
  }
  return names.size > count / 2 ? new Set() : names;
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
  const names = namesIn(question);
  const groups = content.map((word): Group => {
    const fixed = corrected(word);
    const known = fixed ?? word;
    const expansions = synonymsOf(known);
    return {
      word: known,
      terms: [...new Set([stem(known), ...expansions])],
      general: generalWords.has(known),
      corrected: fixed !== null,
      foreignName: names.has(word) && !theKnowledge().names.has(stem(known)) && expansions.length === 0,
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

/** The passages' texts with these outside addresses, by passage id; one map per set of addresses, kept. */
const textsByLinks = new Map<string, ReadonlyMap<string, string>>();

function passageTexts(links: SiteLinks): ReadonlyMap<string, string> {
  const key = JSON.stringify(links);
  let texts = textsByLinks.get(key);
  if (!texts) {
    texts = new Map(buildCorpus(links).map((passage) => [passage.id, passage.text]));
    textsByLinks.set(key, texts);
  }
  return texts;
}

function toPassage(passage: CorpusPassage, score: number, links: SiteLinks): Passage {
  const text = passageTexts(links).get(passage.id) ?? passage.text;
  return { id: passage.id, title: passage.title, path: passage.path, text, score };
}

/** A search result with its score after coordination (rank()). */
interface Ranked {
  id: string;
  score: number;
  /** The BM25 score, before coordination. */
  raw: number;
  /** The index terms of the question this passage matched. */
  queryTerms: readonly string[];
}

/**
 * How much each of the visitor's words weighs: rarer words in the site weigh more, a word the site never uses and
 * Titan cannot expand as much as the rarest (weather, recipe, but also 'wiped' or 'warehouse' in a question about
 * the site), a name the site never writes double (Netflix, NBA, Windows: most often what the question is about), a
 * general word little. Numbers weigh nothing ('50 million rows' is about the rows).
 */
function groupWeights(question: Question): number[] {
  const { passages, documentFrequency } = theKnowledge();
  const idf = (frequency: number) => Math.log(1 + passages.size / (frequency + 0.5));
  return question.groups.map((group) => {
    const own = group.terms[0] ?? '';
    if (/^\d+$/.test(own)) return 0;
    const frequency = documentFrequency.get(own) ?? 0;
    const expansions = group.terms.slice(1).map((term) => documentFrequency.get(term) ?? 0);
    let weight: number;
    if (group.foreignName) weight = 2 * idf(0);
    else if (frequency > 0) weight = idf(frequency);
    // A word Titan knows the site's words for weighs as the commonest of them.
    else if (expansions.some((count) => count > 0)) weight = idf(Math.max(...expansions));
    else weight = idf(0);
    return group.general ? weight * GENERAL_WEIGHT : weight;
  });
}

/** The weighted share of the visitor's words that `matched` holds, directly or through an expansion. */
function matchedShare(question: Question, weights: readonly number[], matched: ReadonlySet<string>): number {
  let total = 0;
  let covered = 0;
  question.groups.forEach((group, index) => {
    const weight = weights[index] ?? 0;
    total += weight;
    // A foreign name is never answered by the common word the pages use (Windows, a window).
    if (!group.foreignName && group.terms.some((term) => matched.has(term))) covered += weight;
  });
  return total === 0 ? 0 : covered / total;
}

/**
 * How much of the question the best passages answer: the share of the visitor's words that the top results matched.
 * Off-topic questions match a common word or two and leave their real subject unmatched.
 */
function coverage(question: Question, weights: readonly number[], results: readonly Ranked[]): number {
  const matched = new Set(results.slice(0, COVERAGE_RESULTS).flatMap((result) => result.queryTerms));
  return matchedShare(question, weights, matched);
}

/*
 * Names of other companies' products and platforms: Titan expands them to the site's word for their kind (iPhone →
 * mobile phone), which finds the right page for 'Do you build iPhone apps?', but a question about the product itself
 * ('When will the new iPhone be available?') is not about this site.
 */
const productNames = new Set(
  'iphone android aws azure gcp kubernetes oracle gpt chatgpt github gitlab'.split(' '),
);

/**
 * Whether the best passages match one of the question's subject words (not general words) for what it is: as the
 * visitor wrote it (or corrected), or through Titan's expansion of a word the site never uses ('GDPR' is the
 * privacy policy's personal information, 'hobbies' the resume's interests). A word the site does use but these
 * passages lack is not stood in for by its expansions ('available' in 'When will the new iPhone be available?' is
 * not the product page's 'release'), nor is another company's product by its kind.
 */
function matchesSubject(question: Question, weights: readonly number[], results: readonly Ranked[]): boolean {
  const { documentFrequency } = theKnowledge();
  const matched = new Set(results.slice(0, COVERAGE_RESULTS).flatMap((result) => result.queryTerms));
  const subjects = question.groups.filter((group, index) => !group.general && (weights[index] ?? 0) > 0);
  // A question of general words alone ('What services do you offer?') has no subject to match.
  if (subjects.length === 0) return true;
  return subjects.some((group) => {
    const [own = '', ...expansions] = group.terms;
    if (group.foreignName) return false;
    if (matched.has(own)) return true;
    if ((documentFrequency.get(own) ?? 0) > 0 || productNames.has(group.word)) return false;
    return expansions.some((term) => matched.has(term));
  });
}

/** How much a visitor's own word counts against the words Titan expanded it to. */
const EXPANSION_BOOST = 0.5;

/**
 * Each passage's BM25 score for the question, best first. The words one visitor's word was expanded to count as one
 * word (the best of them), as a synonym query does: 'AI' expanded to 'language model assistant' is still one word of
 * the question, and a passage holding all four must not count four times. (MiniSearch alone would add them up and
 * multiply by the number of terms matched.) Expansions count EXPANSION_BOOST, unless the site never uses the visitor's
 * own word: then they are the only way to find it ('hobbies' are the resume's interests).
 */
function scoreByGroup(question: Question, weights: readonly number[]): Ranked[] {
  const { search, documentFrequency } = theKnowledge();
  const byTerm = new Map<string, Map<string, number>>();
  for (const term of question.all) {
    const scores = new Map<string, number>();
    for (const result of search.search(term, { processTerm: (same) => same })) {
      scores.set(String(result.id), result.score);
    }
    byTerm.set(term, scores);
  }
  const totals = new Map<string, { score: number; terms: Set<string>; groups: number; used: Set<string> }>();
  // Heaviest words first: a passage's term stands for one visitor's word only ('vulnerability' and 'scanner' both
  // expand to 'security'; a passage about security answers one of them, not both).
  const order = question.groups.map((group, index) => ({ group, weight: weights[index] ?? 0 }));
  order.sort((a, b) => b.weight - a.weight);
  for (const { group, weight } of order) {
    const [own = '', ...expansions] = group.terms;
    const ownKnown = (documentFrequency.get(own) ?? 0) > 0;
    const boostOf = (term: string) => {
      const boost = term === own || !ownKnown ? 1 : EXPANSION_BOOST;
      return group.general ? boost * EXPANSION_BOOST : boost;
    };
    const best = new Map<string, { score: number; term: string }>();
    for (const term of [own, ...expansions]) {
      for (const [id, score] of byTerm.get(term) ?? []) {
        const total = totals.get(id) ?? {
          score: 0,
          terms: new Set<string>(),
          groups: 0,
          used: new Set<string>(),
        };
        totals.set(id, total);
        if (total.used.has(term)) continue;
        total.terms.add(term);
        const boosted = score * boostOf(term);
        if (boosted > (best.get(id)?.score ?? 0)) best.set(id, { score: boosted, term });
      }
    }
    for (const [id, { score, term }] of best) {
      const total = totals.get(id);
      if (!total) continue;
      total.used.add(term);
      total.score += score;
      total.groups += weight > 0 ? (group.general ? GENERAL_WEIGHT : 1) : 0;
    }
  }
  return [...totals]
    .filter(([, { score }]) => score > 0)
    .map(([id, { score, terms: matched, groups }]) => ({
      id,
      // MiniSearch's own rule, counted in the visitor's words: the more of them a passage matches, the better.
      score: score * Math.max(1, groups),
      raw: score,
      queryTerms: [...matched],
    }))
    .sort((a, b) => b.score - a.score);
}

function rank(question: Question): { results: Ranked[]; confident: boolean; coverage: number } {
  if (question.smallTalk !== null || question.all.length === 0)
    return { results: [], confident: false, coverage: 0 };
  const { passages } = theKnowledge();
  const weights = groupWeights(question);
  const found = scoreByGroup(question, weights);
  const pageTerms = new Map<string, Set<string>>();
  const pageCount = new Map<string, number>();
  for (const result of found) {
    const path = passages.get(result.id)?.path ?? '';
    const count = pageCount.get(path) ?? 0;
    if (count >= PAGE_PASSAGES) continue;
    pageCount.set(path, count + 1);
    const matched = pageTerms.get(path) ?? new Set<string>();
    for (const term of result.queryTerms) matched.add(term);
    pageTerms.set(path, matched);
  }
  const pageShare = new Map(
    [...pageTerms].map(([path, terms]) => [path, matchedShare(question, weights, terms)] as const),
  );
  /*
   * Coordination: a passage keeps COORDINATION_FLOOR of its score plus the rest in proportion to the share of the
   * question that it, and its page, match (a page answers with several passages: 'the founder's hobbies' are the
   * resume's summary and its interests). Without it, a passage that repeats one word beats one that answers the
   * whole question ('Does signing up cost anything?' found the consulting prices).
   */
  const results = found
    .map((result): Ranked => {
      const share = matchedShare(question, weights, new Set(result.queryTerms));
      const ofPage = pageShare.get(passages.get(result.id)?.path ?? '') ?? share;
      return {
        ...result,
        score: result.score * (COORDINATION_FLOOR + ((1 - COORDINATION_FLOOR) * (share + ofPage)) / 2),
      };
    })
    .sort((a, b) => b.score - a.score);
  const best = results[0];
  if (!best) return { results: [], confident: false, coverage: 0 };
  const share = coverage(question, weights, results);
  const confident =
    best.raw >= MIN_SCORE && share >= MIN_COVERAGE && matchesSubject(question, weights, results);
  return { results, confident, coverage: share };
}

/**
 * The passages that best answer a question (at most `limit`, best first, without those far below the best), and
 * whether they are good enough to answer with; their texts name the site's outside addresses that are set. Greetings
 * and empty questions give none.
 */
export function retrieve(
  question: string,
  limit = 3,
  links: SiteLinks = noSiteLinks,
): { passages: Passage[]; confident: boolean } {
  const { results, confident } = rank(parseQuestion(question));
  const { passages } = theKnowledge();
  const top = results[0]?.score ?? 0;
  const chosen = results
    .filter((result) => result.score >= top * RELATIVE_CUT)
    .slice(0, Math.max(0, limit))
    .flatMap((result) => {
      const passage = passages.get(result.id);
      return passage ? [toPassage(passage, result.score, links)] : [];
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

/** The reply when the site's pages do not answer the question, with the support address when one is set. */
export function notKnownTextOf({ supportEmail }: SiteLinks): string {
  return (
    'I do not know the answer to that: I can only answer from the pages of this site, and none of them covers it. ' +
    'You can ask the team directly: send a message from [Contact us](/contact-us)' +
    `${supportEmail ? ` or write to ${supportEmail}` : ''}, and a person will answer, usually within two working days.`
  );
}

/** The reply when the site's pages do not answer the question, on a site without a support address. */
export const notKnownText = notKnownTextOf(noSiteLinks);

const whatICanAnswer =
  'Ask me about our services (databases, cloud, custom and web applications, AI), about DBUI, our news, privacy ' +
  'and terms, or how to reach us, and I will answer from the pages of this site with links to them.';

/** The reply to a greeting. */
export const greetingText = `Hello! I am Titan. ${whatICanAnswer}`;

/** The reply to thanks or goodbye. */
export const thanksText =
  'You are welcome! If anything else comes up, ask me here, or write to the team from [Contact us](/contact-us).';

/** Titan's answer without a language model: the best passages as short excerpts, each with a link to its page;
 * `links` are the site's outside addresses (named where set). */
export function builtInAnswer(question: string, links: SiteLinks = noSiteLinks): Answer {
  const parsed = parseQuestion(question);
  if (parsed.smallTalk !== null) {
    return {
      text: parsed.smallTalk === 'thanks' ? thanksText : greetingText,
      origin: 'small-talk',
      sources: [],
    };
  }
  const { passages, confident } = retrieve(question, 6, links);
  if (!confident || passages.length === 0)
    return { text: notKnownTextOf(links), origin: 'built-in', sources: [] };

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
export function introduction({ supportEmail }: SiteLinks = noSiteLinks): Answer {
  return {
    text:
      'Hello, I am Titan, the assistant of this site. I can answer questions about our services (database ' +
      'management, cloud, custom applications, AI connectivity, web and mobile apps, consultations), about DBUI, ' +
      'our database browser, and about our news, our team, privacy and terms of use. My answers come from the ' +
      'pages of this site, and I link the pages I used so you can read more. A chat holds up to ' +
      `${CHAT_MESSAGE_LIMIT} of your messages; for anything else, the team is one message away at ` +
      `[Contact us](/contact-us)${supportEmail ? ` or ${supportEmail}` : ''}. What would you like to know?`,
    origin: 'introduction',
    sources: [],
  };
}
