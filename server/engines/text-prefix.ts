/** Prefix search by range: the upper bound of every string starting with a prefix, in code-point order. */

const MAX_CODE_POINT = 0x10ffff;

/** The smallest string above every string that starts with `prefix`, in code-point order; null when there is
 * none (the prefix is only U+10FFFF characters). */
export function codePointSuccessor(prefix: string): string | null {
  const points = Array.from(prefix, (character) => character.codePointAt(0) ?? 0);
  while (points.length > 0) {
    const last = points.pop() ?? MAX_CODE_POINT;
    if (last < MAX_CODE_POINT) {
      // Surrogates are not characters: after U+D7FF comes U+E000.
      points.push(last + 1 === 0xd800 ? 0xe000 : last + 1);
      return String.fromCodePoint(...points);
    }
  }
  return null;
}
