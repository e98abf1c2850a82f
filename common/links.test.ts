import { describe, expect, it } from 'vitest';
import { LINK_MAX_LENGTH, LINK_MAX_SEGMENTS } from './limits.ts';
import {
  canonicalLink,
  canonicalTableId,
  encodeSegment,
  linkAllows,
  linkMatcher,
  linksAllow,
  linksShowDatabase,
  tableId,
  tableOfId,
  tablePath,
} from './links.ts';

describe('linkAllows', () => {
  it.each([
    ['*', '/db/shop/public/orders', true],
    ['/*', '/admin/users', true],
    ['/db/shop/*', '/db/shop/public/orders', true],
    ['/db/shop/*', '/db/shop', true],
    ['/db/shop/*', '/db/shopping/public/orders', false],
    ['/db/shop/public/orders', '/db/shop/public/orders', true],
    ['/db/shop/public/orders', '/db/shop/public/orders2', false],
    ['/db/shop/public/orders', '/db/shop/public', false],
    ['/account/*', '/account/updatePassword', true],
    ['/account', '/account/', true],
    ['/account/', '/account', true],
    ['', '/home', false],
    ['/', '/', true],
    ['/', '/home', false],
    // Look-alike prefixes: a prefix is whole segments, never part of one.
    ['/db/x/*', '/db/xy/t', false],
    ['/db/x/*', '/db/x/t', true],
    ['/db/x/main/t/*', '/db/x/main/t2', false],
    // Case is part of a name.
    ['/db/x/main/T', '/db/x/main/t', false],
    ['/db/X/*', '/db/x/main/t', false],
  ])('%s allows %s: %s', (link, path, expected) => {
    expect(linkAllows(link, path)).toBe(expected);
  });

  it('allows when any link does', () => {
    expect(linksAllow(['/a', '/db/x/*'], tablePath('x', 'main', 't'))).toBe(true);
    expect(linksAllow([], '/a')).toBe(false);
  });

  it('shows a database only for a link of everything or one under it', () => {
    expect(linksShowDatabase(['*'], 'shop')).toBe(true);
    expect(linksShowDatabase(['/*'], 'shop')).toBe(true);
    expect(linksShowDatabase(['/db/*'], 'shop')).toBe(true);
    expect(linksShowDatabase(['/db/shop/public/orders'], 'shop')).toBe(true);
    expect(linksShowDatabase(['/db/shop'], 'shop')).toBe(true);
    expect(linksShowDatabase(['/db/shopping/*'], 'shop')).toBe(false);
    expect(linksShowDatabase(['/db/sho/*'], 'shop')).toBe(false);
    expect(linksShowDatabase(['/account/*'], 'shop')).toBe(false);
    expect(linksShowDatabase(['/db'], 'shop')).toBe(false);
  });
});

describe('table paths are compared segment by segment', () => {
  // Issue 10, finding 1: schema `pub/x` is not under the link of schema `pub`.
  it('keeps a schema whose name holds a slash out of a look-alike schema link', () => {
    expect(linkAllows('/db/pg/pub/*', tablePath('pg', 'pub/x', 'secret2'))).toBe(false);
    expect(linkAllows('/db/pg/pub/*', tablePath('pg', 'pub', 'x/secret2'))).toBe(true);
    expect(linkAllows('/db/pg/pub/x/*', tablePath('pg', 'pub', 'x/secret2'))).toBe(false);
    expect(linkAllows('/db/pg/pub/x/secret2', tablePath('pg', 'pub/x', 'secret2'))).toBe(false);
    expect(linkAllows('/db/pg/pub%2Fx/*', tablePath('pg', 'pub/x', 'secret2'))).toBe(true);
    expect(linkAllows('/db/pg/pub%2Fx/*', tablePath('pg', 'pub', 'x/secret2'))).toBe(false);
    expect(linksShowDatabase(['/db/pg/*'], 'pg/x')).toBe(false);
  });

  it('never reads a * of a name as the wildcard', () => {
    expect(tablePath('x', 'main', '*')).toBe('/db/x/main/%2A');
    expect(linkAllows('/db/x/main/%2A', tablePath('x', 'main', '*'))).toBe(true);
    expect(linkAllows('/db/x/main/%2A', tablePath('x', 'main', 'orders'))).toBe(false);
    expect(linkAllows('/db/x/main/star%2A', tablePath('x', 'main', 'star*'))).toBe(true);
    expect(linkAllows('/db/x/main/star%2A', tablePath('x', 'main', 'starry'))).toBe(false);
    // A schema named * is one schema, not every schema.
    expect(linkAllows('/db/x/%2A/*', tablePath('x', 'main', 't'))).toBe(false);
  });

  it('encodes each name as one segment; plain names are unchanged', () => {
    expect(tablePath('shop', 'public', 'order_lines-2.0')).toBe('/db/shop/public/order_lines-2.0');
    expect(tableId('shop', 'public', 'orders')).toBe('shop/public/orders');
    expect(tablePath('pg', 'pub/x', 'secret2')).toBe('/db/pg/pub%2Fx/secret2');
    expect(tableId('pg', 'pub/x', 'secret2')).not.toBe(tableId('pg', 'pub', 'x/secret2'));
    expect(encodeSegment('per%cent')).toBe('per%25cent');
    expect(encodeSegment('two words')).toBe('two%20words');
    expect(encodeSegment('ünï 表')).toBe('%C3%BCn%C3%AF%20%E8%A1%A8');
    expect(encodeSegment("it's (x)!")).toBe("it's%20(x)!");
    expect(encodeSegment('.')).toBe('%2E');
    expect(encodeSegment('..')).toBe('%2E%2E');
    expect(encodeSegment('a..b')).toBe('a..b');
    // A lone surrogate (no engine should answer one) still gets a segment of its own, unlike U+FFFD.
    expect(encodeSegment('\uD800')).not.toBe(encodeSegment('\uFFFD'));
  });

  it('reads a TableId back into its names', () => {
    for (const [database, schema, table] of [
      ['pg', 'pub/x', 'secret2'],
      ['x', 'main', '*'],
      ['x', 'main', 'per%cent'],
      ['x', '..', 'ünï 表'],
    ] as const) {
      expect(tableOfId(tableId(database, schema, table))).toEqual({ database, schema, table });
    }
    expect(tableOfId('pg/pub/x/secret2')).toBeNull();
    expect(tableOfId('pg/pub')).toBeNull();
    expect(tableOfId('pg/pub/per%cent')).toBeNull();
  });

  it('does not resolve dot segments of a path', () => {
    expect(linkAllows('/db/x/*', '/db/x/../y/t')).toBe(false);
    expect(linkAllows('/db/x/*', '/db/x/./t')).toBe(false);
    expect(linkAllows('/db/y/*', tablePath('x', '../y', 't'))).toBe(false);
    expect(linkAllows('/db/x/*', tablePath('x', '..', 't'))).toBe(true);
    expect(linkAllows('*', '/db/x/../y')).toBe(true);
  });

  it('compares a browser path by its decoded names', () => {
    // A browser may leave * and spaces as typed or encode them; either way it is the same name.
    expect(linkAllows('/db/x/main/two%20words', '/db/x/main/two words')).toBe(true);
    expect(linkAllows('/db/x/main/sla%2Fsh', '/db/x/main/sla%2fsh')).toBe(true);
    expect(linkAllows('/db/x/main/%2A', '/db/x/main/*')).toBe(true);
    expect(linkAllows('/db/x/main/sla/*', '/db/x/main/sla%2Fsh')).toBe(false);
    expect(linkAllows('/db/x/main/per%25cent', '/db/x/main/per%cent')).toBe(false);
  });

  it('answers many tables from one compiled set of links', () => {
    const allows = linkMatcher(['/db/x/main/*', '/db/y/s/t']);
    expect(allows.table('x', 'main', 'a/b')).toBe(true);
    expect(allows.table('x', 'main/a', 'b')).toBe(false);
    expect(allows.table('y', 's', 't')).toBe(true);
    expect(allows.table('y', 's', 't2')).toBe(false);
    expect(allows.database('y')).toBe(true);
    expect(allows.database('z')).toBe(false);
  });
});

describe('canonical links', () => {
  it.each([
    ['*', '*'],
    ['/*', '/*'],
    ['  /db/shop/*  ', '/db/shop/*'],
    ['/db/x/main/t/', '/db/x/main/t'],
    ['/db/x/main/sla%2fsh', '/db/x/main/sla%2Fsh'],
    ['/db/x/main/two words', '/db/x/main/two%20words'],
    ['/db/x/main/ünï', '/db/x/main/%C3%BCn%C3%AF'],
    ['/db/x/main/%41', '/db/x/main/A'],
    ['/db/x/main/..', '/db/x/main/%2E%2E'],
    ['/db/x/main/star%2a', '/db/x/main/star%2A'],
  ])('%s is stored as %s', (link, stored) => {
    expect(canonicalLink(link)).toEqual({ link: stored });
  });

  it.each([
    ['a % without two hex digits', '/db/x/main/per%cent', 'percent'],
    ['a byte that is not UTF-8', '/db/x/main/%FF', 'percent'],
    ['a % at the end', '/db/x/main/%', 'percent'],
    ['a * before the end', '/db/*/main/t', 'star'],
    ['a * inside a name', '/db/x/main/star*', 'star'],
    ['two stars', '/db/x/**', 'star'],
    ['no leading /', 'db/x/*', 'start'],
    ['an empty link', '', 'start'],
    ['a link too long', `/db/${'a'.repeat(LINK_MAX_LENGTH)}`, 'length'],
    [
      'too many segments',
      `/${Array.from({ length: LINK_MAX_SEGMENTS + 1 }, () => 'a').join('/')}`,
      'segments',
    ],
    ['490 slashes', `/${'/'.repeat(489)}x`, 'segments'],
  ])('refuses %s', (_label, link, problem) => {
    expect(canonicalLink(link)).toEqual({ problem });
  });

  it('measures the stored form: names that encode longer than the limit are refused', () => {
    const name = 'é'.repeat(Math.ceil(LINK_MAX_LENGTH / 6));
    expect(`/db/x/${name}`.length).toBeLessThan(LINK_MAX_LENGTH);
    expect(canonicalLink(`/db/x/${name}`)).toEqual({ problem: 'length' });
  });

  it('stores a TableId with each name encoded once', () => {
    expect(canonicalTableId('shop/main/orders')).toEqual({ tableId: 'shop/main/orders' });
    expect(canonicalTableId(' pg/pub%2fx/secret2 ')).toEqual({ tableId: 'pg/pub%2Fx/secret2' });
    expect(canonicalTableId('x/main/two words')).toEqual({ tableId: 'x/main/two%20words' });
    expect(canonicalTableId('pg/pub/x/secret2')).toEqual({ problem: 'tableId' });
    expect(canonicalTableId('pg/pub')).toEqual({ problem: 'tableId' });
    expect(canonicalTableId('pg//t')).toEqual({ problem: 'tableId' });
    expect(canonicalTableId('x/main/per%cent')).toEqual({ problem: 'percent' });
    expect(canonicalTableId(`x/main/${'a'.repeat(LINK_MAX_LENGTH)}`)).toEqual({ problem: 'length' });
  });
});

/** The CPU this process has spent, in ms: unlike the wall clock, it does not grow while a loaded machine waits. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

describe('matching cost', () => {
  // Issue 11, finding 7: a trailing-slash pattern made long runs of slashes cost time quadratic in their length.
  // Sizes where quadratic work would take minutes and linear work takes milliseconds.
  it('is linear in the length of a link and of a path', () => {
    const slashes = `/db/${'/'.repeat(300_000)}x`;
    const started = cpuMs();
    expect(linkAllows(slashes, '/db/x/main/t')).toBe(false);
    expect(linkAllows('/db/x/*', slashes)).toBe(false);
    expect(linksShowDatabase([slashes], 'x')).toBe(false);
    expect(canonicalLink(slashes)).toEqual({ problem: 'length' });
    expect(cpuMs() - started).toBeLessThan(2_000);
  });

  it('answers many tables against a large set of links without comparing every pair', () => {
    const links = Array.from({ length: 2_000 }, (_, i) => `/db/x/s${i}/${'t'.repeat(400)}`);
    const allows = linkMatcher(links);
    const started = cpuMs();
    for (let i = 0; i < 20_000; i++) expect(allows.table('x', `s${i % 3000}`, 't')).toBe(false);
    expect(allows.table('x', 's7', 't'.repeat(400))).toBe(true);
    // 20,000 tables × 2,000 links × 400 characters compared pairwise would be 1.6e10 character steps.
    expect(cpuMs() - started).toBeLessThan(2_000);
  });
});
