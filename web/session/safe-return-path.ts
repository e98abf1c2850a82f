import { isPageRoute } from '#common/page-routes.ts';

/** Pages a sign-in never returns to: going back to them would sign out again or loop. */
const NEVER_RETURN_TO = new Set(['/account/logout', '/account/login']);

/** Whether the text has a character code up to `highest`, DEL, or a backslash. */
function hasUnsafeCharacter(text: string, highest: number): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= highest || code === 0x7f || code === 0x5c) return true;
  }
  return false;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Percent-decodes until stable (at most a few rounds), or null when the text is not valid encoding. */
function fullyDecoded(text: string): string | null {
  let current = text;
  for (let round = 0; round < 5; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (next === current) return current;
    current = next;
  }
  return null;
}

/**
 * The `r` return address (spec 000 §2) when it is a page of this app, else null: only a path of our own origin,
 * never another site (`//evil.com`, `/\evil.com`, `https://x`), a script (`javascript:`), or any of those
 * percent-encoded, and only a path common/page-routes.ts knows. Answers the path with its query and fragment as
 * the URL parser normalised them.
 */
export function safeReturnPath(raw: string | null | undefined): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 2048) return null;
  const decoded = fullyDecoded(raw);
  if (decoded === null) return null;
  // Browsers strip or reinterpret control characters and raw whitespace, and read a backslash as a slash; decoded,
  // a space is a plain character of a name (`/db/my%20db`), the others still are not.
  if (hasUnsafeCharacter(raw, 0x20) || hasUnsafeCharacter(decoded, 0x1f)) return null;
  for (const text of [raw, decoded]) {
    if (!text.startsWith('/') || text.startsWith('//')) return null;
    if (SCHEME.test(text)) return null;
  }
  const base = 'https://return.invalid';
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return null;
  }
  if (url.origin !== base) return null;
  if (!isPageRoute(url.pathname) || NEVER_RETURN_TO.has(url.pathname.toLowerCase())) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
