import type { Filter } from '#common/contract/filter.ts';
import type * as WhereCheck from './where-check.ts';

/*
 * The filter in the browser's address (issue 35): `where=` holds the filter document as base64url (RFC 4648 §5, no
 * padding) of its JSON in UTF-8, so a shared link opens the same rows and the address stays one parameter whatever
 * the filter's nesting. Reading it here only undoes the encoding (no Zod: the browser's first visit carries no filter
 * code); whether the JSON is a filter document is where-check.ts's question, loaded when an address has one.
 */

/** The address parameter that holds the filter. */
export const WHERE_PARAM = 'where';

/** What a `where=` parameter holds: JSON still to check against the contract, or why it cannot be read. */
export type WhereParam = { json: unknown; problem: null } | { json: null; problem: string };

/** The start of every sentence that refuses an address's filter. */
export const WHERE_BROKEN = 'The filter in this address could not be read';

/** base64url of a filter's JSON in UTF-8. */
export function encodeWhere(filter: Filter | unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(filter));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The JSON of a `where=` parameter (null: none), or why it cannot be read. */
export function readWhereParam(raw: string | null): WhereParam | null {
  if (raw === null || raw.trim() === '') return null;
  const text = raw.trim();
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(text)) {
    return { json: null, problem: `${WHERE_BROKEN}: it is not base64url text. Every row is shown.` };
  }
  let json: string;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, ''));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    json = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { json: null, problem: `${WHERE_BROKEN}: it is not base64url of UTF-8 text. Every row is shown.` };
  }
  try {
    return { json: JSON.parse(json) as unknown, problem: null };
  } catch {
    return { json: null, problem: `${WHERE_BROKEN}: it is not JSON. Every row is shown.` };
  }
}

let checkLoad: Promise<typeof WhereCheck> | null = null;

/** The code that checks an address's filter (where-check.ts, with the filter document's schema), loaded once. */
export function loadWhereCheck(): Promise<typeof WhereCheck> {
  return (checkLoad ??= import('./where-check.ts').catch((error: unknown) => {
    checkLoad = null;
    throw error;
  }));
}
