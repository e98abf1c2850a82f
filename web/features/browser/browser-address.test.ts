import type { Filter } from '#common/contract/filter.ts';
import type { SavedView } from '#common/contract/views.ts';
import { afterEach, describe, expect, it } from 'vitest';
import {
  browserAddressUrl,
  encodeRowParam,
  freshView,
  parseBrowserAddress,
  parsePage,
  parseSize,
  parseRowParam,
  parseSort,
  ROW_BROKEN,
  ROW_PARAM,
  rowAddressUrl,
  writeBrowserAddress,
} from './browser-address.ts';
import { checkWhere } from './filter/where-check.ts';
import { encodeWhere, readWhereParam, WHERE_PARAM } from './filter/where-param.ts';

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
      where: null,
      whereToCheck: null,
      whereProblem: null,
      sort: '-LastName',
      page: 3,
      size: 40,
      viewId: null,
      savedView: null,
      viewPending: null,
      viewNotice: null,
      columns: null,
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
      where: null,
      whereToCheck: null,
      whereProblem: null,
      sort: '-First Name',
      page: 4,
      size: 60,
      viewId: null,
      savedView: null,
      viewPending: null,
      viewNotice: null,
      columns: null,
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

describe('a saved view in the address', () => {
  const table = { schema: 'public', name: 'Track' };
  const where: Filter = { column: 'Composer', op: 'isNotNull' };
  const saved: SavedView = {
    Id: 7,
    name: 'Long tracks',
    columns: [],
    orderBy: '-Milliseconds',
    where,
    pageSize: 50,
    shared: 'everyone',
    author: 'ada',
    mine: true,
    updatedAt: '2026-12-03T08:00:00.000Z',
    dropped: [],
    problems: [],
  };
  const read = (search: string) => {
    const view = parseBrowserAddress('/db/chinook/public/Track', search);
    if (!view) throw new Error('not a browser address');
    return view;
  };

  it('waits for the view named alone, and notes which parts the address sets over it', () => {
    expect(read('?view=7')).toMatchObject({ viewId: 7, viewPending: [], savedView: null });
    expect(read('?view=7&sort=&size=100')).toMatchObject({ viewPending: ['sort', 'size'], sort: null });
    expect(read('?view=x').viewId).toBeNull();
    expect(read('?view=0').viewPending).toBeNull();
  });

  it('writes only the view and what differs from it; an emptied part as an empty parameter', () => {
    const opened = {
      ...freshView('chinook', table),
      viewId: 7,
      savedView: saved,
      sort: '-Milliseconds',
      where,
      size: 50,
    };
    expect(browserAddressUrl(opened)).toBe('/db/chinook/public/Track?view=7');
    expect(browserAddressUrl({ ...opened, sort: 'Name', page: 2 })).toBe(
      '/db/chinook/public/Track?view=7&page=2&sort=Name',
    );
    const emptied = browserAddressUrl({ ...opened, sort: null, where: null, size: 20 });
    expect(emptied).toBe('/db/chinook/public/Track?view=7&size=20&sort=&where=');
    // Read back: the emptied parts stay empty over the view's once it loads.
    expect(read(`?${emptied.split('?')[1]}`)).toMatchObject({
      viewPending: ['sort', 'where', 'size'],
      sort: null,
      where: null,
      size: 20,
    });
  });

  it('writes back, while the view loads, what the address said', () => {
    const view = read('?view=7&sort=&q.Name=Love');
    expect(browserAddressUrl(view)).toBe('/db/chinook/public/Track?view=7&sort=&q.Name=Love');
  });
});

describe('the column layout in the address', () => {
  const table = { schema: 'public', name: 'Track' };

  it('reads cols= into the layout, and no cols= as the default (null)', () => {
    expect(
      parseBrowserAddress('/db/chinook/public/Track', '?cols=TrackId:pin,Composer:240,Name')?.columns,
    ).toEqual([{ name: 'TrackId', pinned: true }, { name: 'Composer', width: 240 }, { name: 'Name' }]);
    expect(parseBrowserAddress('/db/chinook/public/Track', '')?.columns).toBeNull();
    expect(parseBrowserAddress('/db/chinook/public/Track', '?cols=')?.columns).toBeNull();
  });

  it('writes the layout as cols= after the other values and reads back the same layout', () => {
    const columns = [{ name: 'Track Id', pinned: true, width: 120 }, { name: 'Name' }];
    const url = browserAddressUrl({ ...freshView('chinook', table), sort: 'Name', columns });
    expect(url).toBe('/db/chinook/public/Track?sort=Name&cols=Track+Id%3Apin%3A120%2CName');
    const [path = '', query = ''] = url.split('?');
    expect(parseBrowserAddress(path, `?${query}`)?.columns).toEqual(columns);
  });

  it('leaves the default out, and an empty layout too', () => {
    expect(browserAddressUrl({ ...freshView('chinook', table), columns: null })).toBe(
      '/db/chinook/public/Track',
    );
    expect(browserAddressUrl({ ...freshView('chinook', table), columns: [] })).toBe(
      '/db/chinook/public/Track',
    );
  });

  it('starts a new table with the default columns', () => {
    expect(freshView('chinook', table).columns).toBeNull();
  });
});

describe('the filter in the address', () => {
  const table = { schema: 'main', name: 'Invoice' };
  const where: Filter = {
    and: [
      {
        or: [
          { column: 'BillingCountry', op: 'eq', value: 'Brazil' },
          { column: 'BillingCountry', op: 'isNull' },
        ],
      },
      { column: 'Total', op: 'between', values: ['5.5', '10'] },
      { column: 'Note', op: 'contains', value: 'é “quoted” & 100%' },
    ],
  };

  it('travels as one where= parameter of base64url JSON and reads back the same filter once checked', () => {
    const url = browserAddressUrl({ ...freshView('chinook', table), where, sort: 'Total' });
    const [path = '', query = ''] = url.split('?');
    const params = new URLSearchParams(query);
    expect([...params.keys()]).toEqual(['sort', WHERE_PARAM]);
    expect(params.get(WHERE_PARAM)).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(params.get(WHERE_PARAM)).toBe(encodeWhere(where));
    const view = parseBrowserAddress(path, `?${query}`);
    // Read, not yet checked: the check's code loads when an address has a filter.
    expect(view?.where).toBeNull();
    expect(view?.whereToCheck).toEqual({ json: where });
    expect(view?.whereProblem).toBeNull();
    expect(checkWhere(view?.whereToCheck?.json)).toEqual({ where, problem: null });
    // Written back as it came while it waits.
    expect(view && browserAddressUrl(view)).toBe(url);
  });

  it('refuses a parameter that is not base64url, not JSON or no filter, with a sentence, and shows every row', () => {
    const read = (raw: string) => {
      const view = parseBrowserAddress('/db/chinook/main/Invoice', `?where=${raw}`);
      return view?.whereToCheck
        ? checkWhere(view.whereToCheck.json)
        : { where: view?.where, problem: view?.whereProblem };
    };
    const json = (value: unknown) => encodeWhere(value);
    for (const [raw, why] of [
      ['%25%25%25', 'it is not base64url text'],
      [btoa('{not json').replace(/=+$/, ''), 'it is not JSON'],
      [json({ column: 'Total', op: 'like', value: 1 }), 'op must be one of'],
      [json({ column: 'Total', op: 'between', values: [1] }), 'between needs values of two'],
      [json({ or: [] }), 'an or needs at least one filter'],
    ] as const) {
      const checked = read(raw);
      expect(checked.where, raw).toBeNull();
      expect(checked.problem, raw).toContain('The filter in this address could not be read');
      expect(checked.problem, raw).toContain(why);
      expect(checked.problem, raw).toContain('Every row is shown.');
    }
  });

  it('reads a filter that keeps every row, and an empty parameter, as none', () => {
    expect(checkWhere({ and: [] })).toEqual({ where: null, problem: null });
    expect(readWhereParam('')).toBeNull();
    expect(readWhereParam(null)).toBeNull();
  });

  it('is never written back when it was refused', () => {
    const view = parseBrowserAddress('/db/chinook/main/Invoice', '?where=!!!');
    expect(view?.whereProblem).toContain('not base64url');
    expect(view && browserAddressUrl(view)).toBe('/db/chinook/main/Invoice');
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

describe('the row in the address (row=, decision 0067)', () => {
  const table = { schema: 'main', name: 'Track' };

  it('writes and reads a key as base64url JSON, composite keys included', () => {
    const url = rowAddressUrl('chinook', table, { TrackId: 2 });
    expect(url).toBe(`/db/chinook/main/Track?row=${encodeWhere({ TrackId: 2 })}`);
    expect(url).toBe('/db/chinook/main/Track?row=eyJUcmFja0lkIjoyfQ');
    expect(parseBrowserAddress('/db/chinook/main/Track', '?row=eyJUcmFja0lkIjoyfQ')?.row).toEqual({
      TrackId: 2,
    });
    const pair = { a: 'x/ü', b: 2, c: true };
    const [path, search] = rowAddressUrl('chinook', { schema: 'main', name: 'pair' }, pair).split('?');
    expect(parseBrowserAddress(path ?? '', `?${search}`)?.row).toEqual(pair);
  });

  it('keeps the row with the rest of the view, and leaves it out when there is none', () => {
    const view = { ...freshView('chinook', table), page: 2, row: { TrackId: 7 } };
    const url = browserAddressUrl(view);
    expect(url).toBe(`/db/chinook/main/Track?page=2&${ROW_PARAM}=${encodeRowParam({ TrackId: 7 })}`);
    expect(browserAddressUrl({ ...view, row: null })).toBe('/db/chinook/main/Track?page=2');
    expect(parseBrowserAddress('/db/chinook/main/Track', '')).not.toHaveProperty('row');
  });

  it('says why a row= that is not a key cannot be read', () => {
    for (const raw of [
      'not base64!',
      encodeWhere([1, 2]),
      encodeWhere({}),
      encodeWhere({ a: null }),
      encodeWhere(3),
    ]) {
      expect(parseRowParam(raw)).toEqual({ problem: ROW_BROKEN });
      const view = parseBrowserAddress('/db/chinook/main/Track', `?row=${encodeURIComponent(raw)}`);
      expect(view?.row).toBeUndefined();
      expect(view?.rowProblem).toBe(ROW_BROKEN);
    }
    expect(parseRowParam(null)).toBeNull();
    expect(parseRowParam('')).toBeNull();
  });
});
