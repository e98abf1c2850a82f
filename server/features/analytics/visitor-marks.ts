import { createHmac } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';

/*
 * How a visitor is counted once per page a day without keeping who they are (docs/decisions/0043-analytics-counts.md):
 * a mark is a keyed hash (HMAC-SHA-256, 128 bits kept) of the visitor's address and what they were counted for,
 * under the day's random key. The key is kept sealed in the app store for that day only; once it is deleted, no
 * mark can be tied to an address again, and the marks go with it.
 */

/** The visitor an address stands for: an IPv4 address as it is, an IPv6 address by its /64 network (what one
 * household or host gets: counting single IPv6 addresses would let one network count as millions of visitors). */
export function visitorOf(address: string): string {
  const bare = address.replace(/%.*$/, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare)?.[1];
  if (mapped && isIPv4(mapped)) return mapped;
  if (!isIPv6(bare)) return bare;
  const [head = '', tail] = bare.split('::');
  const groupsOf = (part: string) =>
    part === '' ? [] : part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g]));
  const front = groupsOf(head);
  const back = tail === undefined ? [] : groupsOf(tail);
  const groups =
    tail === undefined
      ? front
      : [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back];
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/** What a mark counts a visitor for: themselves (their pages of the day), a page, or a consent choice. */
export type MarkKind = 'visitor' | 'page' | 'consent';

/** The mark of `visitor` counted for `kind` and `what` (the page's path, the choice) under the day's key. */
export function markOf(dayKey: Buffer, kind: MarkKind, visitor: string, what = ''): string {
  return createHmac('sha256', dayKey)
    .update(`${kind}\u0000${visitor}\u0000${what}`)
    .digest()
    .subarray(0, 16)
    .toString('base64url');
}
