/*
 * The Porter stemmer (M. F. Porter, "An algorithm for suffix stripping", 1980), for Titan's index: it reduces
 * 'migrate', 'migrating' and 'migration' to 'migrat', 'exports' and 'exported' to 'export', so a visitor's word form
 * meets the pages' one. Input: a lowercase word; words of one or two letters and words with digits are kept as they are.
 */

function isConsonant(word: string, index: number): boolean {
  const letter = word[index];
  if (letter === 'a' || letter === 'e' || letter === 'i' || letter === 'o' || letter === 'u') return false;
  if (letter === 'y') return index === 0 || !isConsonant(word, index - 1);
  return true;
}

/** Porter's m: the number of vowel-consonant sequences in a stem ([C](VC)^m[V]). */
function measure(stem: string): number {
  let count = 0;
  let index = 0;
  const length = stem.length;
  while (index < length && isConsonant(stem, index)) index += 1;
  while (index < length) {
    while (index < length && !isConsonant(stem, index)) index += 1;
    if (index >= length) break;
    while (index < length && isConsonant(stem, index)) index += 1;
    count += 1;
  }
  return count;
}

function hasVowel(stem: string): boolean {
  for (let index = 0; index < stem.length; index += 1) if (!isConsonant(stem, index)) return true;
  return false;
}

function endsWithDoubleConsonant(word: string): boolean {
  const length = word.length;
  return length >= 2 && word[length - 1] === word[length - 2] && isConsonant(word, length - 1);
}

/** Consonant-vowel-consonant at the end, the last not w, x or y (*o). */
function endsCvc(word: string): boolean {
  const length = word.length;
  if (length < 3) return false;
  const last = word[length - 1] ?? '';
  return (
    isConsonant(word, length - 3) &&
    !isConsonant(word, length - 2) &&
    isConsonant(word, length - 1) &&
    !'wxy'.includes(last)
  );
}

/** Replace the first matching suffix whose stem has a measure above `minMeasure`; rules are tried in order. */
function replaceSuffix(
  word: string,
  rules: readonly (readonly [string, string])[],
  minMeasure: number,
): string {
  for (const [suffix, replacement] of rules) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, word.length - suffix.length);
    return measure(stem) > minMeasure ? stem + replacement : word;
  }
  return word;
}

const step2Rules: readonly (readonly [string, string])[] = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['bli', 'ble'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
  ['logi', 'log'],
];

const step3Rules: readonly (readonly [string, string])[] = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
];

const step4Suffixes = [
  'al',
  'ance',
  'ence',
  'er',
  'ic',
  'able',
  'ible',
  'ant',
  'ement',
  'ment',
  'ent',
  'ion',
  'ou',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
];

function step1ab(word: string): string {
  let term = word;
  if (term.endsWith('sses')) term = term.slice(0, -2);
  else if (term.endsWith('ies')) term = term.slice(0, -2);
  else if (!term.endsWith('ss') && term.endsWith('s')) term = term.slice(0, -1);

  if (term.endsWith('eed')) {
    if (measure(term.slice(0, -3)) > 0) term = term.slice(0, -1);
    return term;
  }
  let stripped: string | null = null;
  if (term.endsWith('ed') && hasVowel(term.slice(0, -2))) stripped = term.slice(0, -2);
  else if (term.endsWith('ing') && hasVowel(term.slice(0, -3))) stripped = term.slice(0, -3);
  if (stripped === null) return term;
  if (stripped.endsWith('at') || stripped.endsWith('bl') || stripped.endsWith('iz')) return `${stripped}e`;
  if (endsWithDoubleConsonant(stripped) && !/[lsz]$/.test(stripped)) return stripped.slice(0, -1);
  if (measure(stripped) === 1 && endsCvc(stripped)) return `${stripped}e`;
  return stripped;
}

function step4(word: string): string {
  for (const suffix of step4Suffixes) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, word.length - suffix.length);
    if (suffix === 'ion' && !/[st]$/.test(stem)) return word;
    return measure(stem) > 1 ? stem : word;
  }
  return word;
}

function step5(word: string): string {
  let term = word;
  if (term.endsWith('e')) {
    const stem = term.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) term = stem;
  }
  if (measure(term) > 1 && endsWithDoubleConsonant(term) && term.endsWith('l')) term = term.slice(0, -1);
  return term;
}

/** The Porter stem of a lowercase word. */
export function porterStem(word: string): string {
  if (word.length <= 2 || /\d/.test(word)) return word;
  let term = step1ab(word);
  if (term.endsWith('y') && hasVowel(term.slice(0, -1))) term = `${term.slice(0, -1)}i`;
  term = replaceSuffix(term, step2Rules, 0);
  term = replaceSuffix(term, step3Rules, 0);
  term = step4(term);
  return step5(term);
}
