import { afterEach, describe, expect, it } from 'vitest';
import {
  browserAddressUrl,
  freshView,
  parseBrowserAddress,
  parsePage,
  parseSize,
  parseSort,
  writeBrowserAddress,
} from './browser-address.ts';

describe('the browser address', () => {
  it('reads the database alone', () => {
    expect(parseBrowserAddress('/db/chinook', '')).toEqual(freshView('chinook', null));
  });

  it('reads table, terms, sort, page and size', () => {
    expect(
      parseBrowserAddress(
        '/db/chinook/public/Customer',
        '?page=3&size=40&sort=-LastName&q.Country=%20USA%20&q.City=',
      ),
    ).toEqual({
      db: 'chinook',
      table: { schema: 'public', name: 'Customer' },
      filter: { Country: 'USA' },
      sort: '-LastName',
      page: 3,
      size: 40,
    });
  });

  it('decodes names that were percent-encoded as one segment each', () => {
    const view = parseBrowserAddress('/db/my%20db/dbo/Order%2FLines', '');
    expect(view?.db).toBe('my db');
    expect(view?.table).toEqual({ schema: 'dbo', name: 'Order/Lines' });
  });

  it('is null for paths that are not the browser', () => {
    expect(parseBrowserAddress('/db', '')).toBeNull();
    expect(parseBrowserAddress('/db/a/b', '')).toBeNull();
    expect(parseBrowserAddress('/account', '')).toBeNull();
    expect(parseBrowserAddress('/db/%E0%A4%A', '')).toBeNull();
  });

  it('falls back for values that do not parse', () => {
    expect(parsePage('0')).toBe(1);
    expect(parsePage('-2')).toBe(1);
    expect(parsePage('2.5')).toBe(1);
    expect(parsePage('abc')).toBe(1);
    expect(parsePage(null)).toBe(1);
    expect(parsePage('100000')).toBe(100000);
    expect(parseSize('30')).toBe(20);
    expect(parseSize('x')).toBe(20);
    expect(parseSize(null)).toBe(20);
    expect(parseSize('100')).toBe(100);
    expect(parseSort('')).toBeNull();
    expect(parseSort('-')).toBeNull();
    expect(parseSort('Name')).toBe('Name');
    expect(parseSort('-Name')).toBe('-Name');
  });

  it('writes only what differs from the defaults, and reads back what it wrote', () => {
    const table = { schema: 'public', name: 'Customer' };
    expect(browserAddressUrl(freshView('chinook', table))).toBe('/db/chinook/public/Customer');
    const view = {
      db: 'my db',
      table: { schema: 'dbo', name: 'Order/Lines' },
      filter: { 'First Name': 'Ada & Co', Id: ' 7 ', Empty: '  ' },
      sort: '-First Name',
      page: 4,
      size: 60,
    };
    const url = browserAddressUrl(view);
    expect(url).toBe(
      '/db/my%20db/dbo/Order%2FLines?page=4&size=60&sort=-First+Name&q.First+Name=Ada+%26+Co&q.Id=7',
    );
    const [path = '', query = ''] = url.split('?');
    expect(parseBrowserAddress(path, `?${query}`)).toEqual({
      ...view,
      filter: { 'First Name': 'Ada & Co', Id: '7' },
    });
  });
});

describe('writing the address', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('replaces the entry and keeps the router state', () => {
    window.history.replaceState({ key: 'k1', idx: 3 }, '', '/db/chinook');
    const length = window.history.length;
    writeBrowserAddress({ ...freshView('chinook', { schema: 'main', name: 'Album' }), page: 2 });
    expect(`${window.location.pathname}${window.location.search}`).toBe('/db/chinook/main/Album?page=2');
    expect(window.history.state).toEqual({ key: 'k1', idx: 3 });
    expect(window.history.length).toBe(length);
  });
});
