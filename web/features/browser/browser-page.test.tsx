import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import type { Filter as FilterDocument } from '#common/contract/filter.ts';
import type { Filter, Row } from '#common/contract/sql.ts';
import type { SavedView } from '#common/contract/views.ts';
import { browserMessages } from '#common/messages.ts';
import type { DataGridProps } from '#web/features/browser/grid/data-grid.tsx';
import type { RowEditorProps } from '#web/features/browser/editor/row-editor.tsx';
import { BrowserPage } from './browser-page.tsx';
import { encodeWhere } from './filter/where-param.ts';
import { albumTable, customerTable, notesTable } from './test-tables.ts';
import { viewsTexts } from './views/views-texts.ts';
import { renderPage } from '#web/test/render-page.tsx';
import { fail, fakeApi, ok, raw } from '#web/test/fake-api.ts';
import { GRID_CUT_TEXT } from '#common/limits.ts';

// A page with a router, a grid and forms is slow to render in jsdom on a shared machine.

// The grid, editor, export and information pieces have their own tests; here they only have to receive what the
// page gives them and hand back what a person does with them.
vi.mock('#web/features/browser/grid/data-grid.tsx', () => ({
  DataGrid: ({
    rows,
    sort,
    onSortChange,
    onOpenRow,
    loading,
    stale,
    layout,
    onLayoutChange,
  }: DataGridProps) => (
    <div
      role="grid"
      aria-label="Rows"
      aria-busy={loading || stale}
      data-layout={JSON.stringify(layout ?? null)}
    >
      <button type="button" onClick={() => onLayoutChange?.([{ name: 'FirstName', width: 300 }])}>
        Widen FirstName
      </button>
      <button type="button" onClick={() => onSortChange(sort === 'LastName' ? '-LastName' : 'LastName')}>
        LastName
      </button>
      {rows.map((row) => (
        <div role="row" key={String(row.Id)} onClick={() => onOpenRow(row)}>
          {String(row.Name)}
        </div>
      ))}
    </div>
  ),
}));
vi.mock('#web/features/browser/editor/row-editor.tsx', () => ({
  RowEditor: ({ target, onClose }: RowEditorProps) =>
    target ? (
      <div role="dialog" aria-label={target.mode === 'add' ? 'Add row' : 'Edit row'}>
        <button type="button" onClick={() => onClose(true)}>
          Close after saving
        </button>
      </div>
    ) : null,
}));
vi.mock('#web/features/browser/export/export-button.tsx', () => ({
  ExportButton: () => <button type="button">Export</button>,
}));
vi.mock('#web/features/browser/info/table-info-modal.tsx', () => ({
  TableInfoModal: ({ opened }: { opened: boolean }) =>
    opened ? <div role="dialog" aria-label="Table information" /> : null,
}));

const api = fakeApi();
const fetchMock = api.fetch;

/** The body of a data API call: JSON, URL-encoded, base64 (spec 000 §7). */
const decodeBody = (body: unknown): Filter | undefined =>
  typeof body === 'string' ? (JSON.parse(decodeURIComponent(atob(body))) as Filter) : undefined;

function pageOf(count: number, names: string[], countIsExact = true) {
  const results: Row[] = names.map((name, i) => ({ Id: i + 1, Name: name }));
  return ok({ results, count, countIsExact });
}

/** The page calls made, as "{table} page {n} size {s} sort {sort} {filter}". */
function pageCalls(): string[] {
  return fetchMock.mock.calls
    .map(([url, init]) => ({ url: new URL(url, 'http://localhost'), body: decodeBody(init.body) }))
    .filter(({ url }) => url.pathname.includes('/page/'))
    .map(({ url, body }) => {
      const [, , , , , table, , page] = url.pathname.split('/');
      const sort = url.searchParams.get('orderBy') ?? '-';
      return `${table} page ${page} size ${url.searchParams.get('pageSize')} sort ${sort} ${JSON.stringify(body)}`;
    });
}

function renderBrowser(at: string) {
  window.history.replaceState(null, '', at);
  return renderPage(<BrowserPage />, {
    at,
    path: ['/db/:db', '/db/:db/:schema/:table'],
    routes: { '/': <h1>Home page</h1> },
  }).router;
}

const address = () => `${window.location.pathname}${window.location.search}`;
const tablesNav = () => screen.getByRole('navigation', { name: 'Tables' });
const pagerNav = () => screen.getByRole('navigation', { name: 'Pages' });

beforeEach(() => {
  notifications.clean();
  api.on('GET', '/api/sql', ok([{ name: 'chinook', engine: 'sqlite' }]));
  api.on('GET', '/api/sql/chinook', ok([albumTable, customerTable, notesTable]));
  api.on('POST', '/api/sql/chinook/main/Customer/page/:page/search', pageOf(1234, ['Ada', 'Grace']));
  api.on(
    'POST',
    '/api/sql/chinook/main/Album/page/:page/search',
    pageOf(2, ['Jagged Little Pill', 'Let There Be Rock']),
  );
  api.on('POST', '/api/sql/chinook/main/Notes/page/:page/search', pageOf(0, []));
});
afterEach(() => {
  window.history.replaceState(null, '', '/');
});

describe('the database browser', () => {
  it('lists the tables as schema.name, says to choose one, and filters the list by the search box', async () => {
    renderBrowser('/db/chinook');
    expect(screen.getByRole('heading', { level: 1, name: 'chinook' })).toBeTruthy();
    expect(await within(tablesNav()).findByRole('link', { name: 'main.Album' })).toBeTruthy();
    expect(within(tablesNav()).getByRole('link', { name: 'main.Customer' }).getAttribute('href')).toBe(
      '/db/chinook/main/Customer',
    );
    expect(screen.getByRole('heading', { level: 2, name: 'Choose a table' })).toBeTruthy();
    expect(pageCalls()).toEqual([]);

    fireEvent.change(within(tablesNav()).getByLabelText('Search tables'), { target: { value: 'CUST' } });
    await waitFor(() => expect(within(tablesNav()).queryByRole('link', { name: 'main.Album' })).toBeNull());
    expect(
      within(tablesNav())
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['main.Customer']);

    fireEvent.change(within(tablesNav()).getByLabelText('Search tables'), { target: { value: 'nothing' } });
    expect(await within(tablesNav()).findByText('No table matches “nothing”.')).toBeTruthy();
  });

  it('switches tables in place and writes the address', async () => {
    renderBrowser('/db/chinook/main/Customer?page=3&sort=LastName&q.LastName=Go');
    expect(await screen.findByRole('heading', { level: 2, name: 'main.Customer' })).toBeTruthy();
    expect(
      (await within(tablesNav()).findByRole('link', { name: 'main.Customer' })).getAttribute('aria-current'),
    ).toBe('page');
    await waitFor(() =>
      expect(pageCalls()).toContain('Customer page 3 size 20 sort LastName {"LastName":"Go"}'),
    );

    fireEvent.click(within(tablesNav()).getByRole('link', { name: 'main.Album' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'main.Album' })).toBeTruthy();
    expect(address()).toBe('/db/chinook/main/Album');
    expect(within(tablesNav()).getByRole('link', { name: 'main.Album' }).getAttribute('aria-current')).toBe(
      'page',
    );
    await waitFor(() => expect(pageCalls()).toContain('Album page 1 size 20 sort - {}'));
    expect(await screen.findByText('Jagged Little Pill')).toBeTruthy();
    // The search form belongs to the new table: Album has one searchable column.
    const search = screen.getByRole('form', { name: 'Search' });
    expect(within(search).getByLabelText('AlbumId', { selector: 'input' })).toBeTruthy();
    expect(within(search).queryByLabelText('LastName')).toBeNull();
  });

  it('searches from page 1, with the trimmed terms in the address', async () => {
    renderBrowser('/db/chinook/main/Customer?page=3');
    const search = await screen.findByRole('form', { name: 'Search' });
    fireEvent.change(within(search).getByLabelText('LastName', { selector: 'input' }), {
      target: { value: '  Gon ' },
    });
    fireEvent.click(within(search).getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(pageCalls()).toContain('Customer page 1 size 20 sort - {"LastName":"Gon"}'));
    expect(address()).toBe('/db/chinook/main/Customer?q.LastName=Gon');

    fireEvent.click(within(search).getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(address()).toBe('/db/chinook/main/Customer'));
  });

  it('sorts from page 1', async () => {
    renderBrowser('/db/chinook/main/Customer?page=4&size=40');
    fireEvent.click(await screen.findByRole('button', { name: 'LastName' }));
    await waitFor(() => expect(address()).toBe('/db/chinook/main/Customer?size=40&sort=LastName'));
    await waitFor(() => expect(pageCalls()).toContain('Customer page 1 size 40 sort LastName {}'));
  });

  it('gives the grid the address’s column layout, writes its changes and drops it with a new table', async () => {
    renderBrowser('/db/chinook/main/Customer?sort=LastName&cols=Email:pin:200,FirstName');
    const grid = () => screen.getByRole('grid', { name: 'Rows' });
    await screen.findByText('Ada');
    expect(JSON.parse(grid().getAttribute('data-layout') ?? '')).toEqual([
      { name: 'Email', pinned: true, width: 200 },
      { name: 'FirstName' },
    ]);
    fireEvent.click(within(grid()).getByRole('button', { name: 'Widen FirstName' }));
    await waitFor(() =>
      expect(address()).toBe('/db/chinook/main/Customer?sort=LastName&cols=FirstName%3A300'),
    );
    fireEvent.click(within(tablesNav()).getByRole('link', { name: 'main.Album' }));
    await waitFor(() => expect(address()).toBe('/db/chinook/main/Album'));
    expect(grid().getAttribute('data-layout')).toBe('null');
  });

  it('pages: next, last, a typed page and the page size, each in the address', async () => {
    renderBrowser('/db/chinook/main/Customer');
    const pages = await screen.findByRole('navigation', { name: 'Pages' });
    expect(await within(pages).findByText(/Page 1 of 62/)).toBeTruthy();
    expect(within(pages).getByText(/1,234 rows/)).toBeTruthy();

    fireEvent.click(within(pages).getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(address()).toBe('/db/chinook/main/Customer?page=2'));
    await waitFor(() => expect(pageCalls()).toContain('Customer page 2 size 20 sort - {}'));

    fireEvent.click(within(pagerNav()).getByRole('button', { name: 'Last page' }));
    await waitFor(() => expect(address()).toBe('/db/chinook/main/Customer?page=62'));

    const entry = within(pagerNav()).getByRole('textbox', { name: 'Page' });
    fireEvent.change(entry, { target: { value: '63' } });
    fireEvent.submit(entry.closest('form') as HTMLFormElement);
    expect(within(pagerNav()).getByText('Enter a page from 1 to 62.')).toBeTruthy();
    expect(address()).toBe('/db/chinook/main/Customer?page=62');
    fireEvent.change(entry, { target: { value: '7' } });
    fireEvent.submit(entry.closest('form') as HTMLFormElement);
    await waitFor(() => expect(address()).toBe('/db/chinook/main/Customer?page=7'));

    fireEvent.change(within(pagerNav()).getByRole('combobox', { name: 'Rows per page' }), {
      target: { value: '100' },
    });
    await waitFor(() => expect(address()).toBe('/db/chinook/main/Customer?size=100'));
    await waitFor(() => expect(pageCalls()).toContain('Customer page 1 size 100 sort - {}'));
    expect(await within(pagerNav()).findByText(/Page 1 of 13/)).toBeTruthy();
  });

  it('sends the cursor of the page shown with Next and Previous, none with a jump, and keeps ?page= alone', async () => {
    api.on('POST', '/api/sql/chinook/main/Customer/page/:page/search', (request) => {
      const page = request.pathname.split('/')[7];
      return ok({
        results: [{ Id: Number(page), Name: `Row of page ${page}` }],
        count: 1234,
        countIsExact: true,
        cursor: `cursor-of-${page}`,
      });
    });
    /** The page calls as "{page} {cursor or none}". */
    const cursorCalls = () =>
      fetchMock.mock.calls
        .map(([url]) => new URL(url, 'http://localhost'))
        .filter((url) => url.pathname.includes('/page/'))
        .map((url) => `${url.pathname.split('/')[7]} ${url.searchParams.get('cursor') ?? 'none'}`);
    renderBrowser('/db/chinook/main/Customer');
    expect(await screen.findByText('Row of page 1')).toBeTruthy();
    expect(cursorCalls()).toEqual(['1 none']);

    fireEvent.click(within(pagerNav()).getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('Row of page 2')).toBeTruthy();
    expect(cursorCalls()).toContain('2 cursor-of-1');
    expect(address()).toBe('/db/chinook/main/Customer?page=2');

    fireEvent.click(within(pagerNav()).getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('Row of page 3')).toBeTruthy();
    expect(cursorCalls()).toContain('3 cursor-of-2');

    fireEvent.click(within(pagerNav()).getByRole('button', { name: 'Previous page' }));
    expect(await screen.findByText('Row of page 2')).toBeTruthy();
    await waitFor(() => expect(cursorCalls()).toContain('2 cursor-of-3'));

    fireEvent.click(within(pagerNav()).getByRole('button', { name: 'Last page' }));
    expect(await screen.findByText('Row of page 62')).toBeTruthy();
    expect(cursorCalls()).toContain('62 none');
    expect(address()).toBe('/db/chinook/main/Customer?page=62');

    // A new sort starts again from page 1 without a cursor; its Next sends page 1's.
    fireEvent.click(screen.getByRole('button', { name: 'LastName' }));
    await waitFor(() => expect(address()).toBe('/db/chinook/main/Customer?sort=LastName'));
    expect(await screen.findByText('Row of page 1')).toBeTruthy();
    expect(cursorCalls().at(-1)).toBe('1 none');
    fireEvent.click(within(pagerNav()).getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(cursorCalls().at(-1)).toBe('2 cursor-of-1'));
  });

  it('shows the last page for an address past it', async () => {
    renderBrowser('/db/chinook/main/Album?page=9');
    await waitFor(() => expect(address()).toBe('/db/chinook/main/Album'));
    await waitFor(() => expect(pageCalls()).toContain('Album page 1 size 20 sort - {}'));
  });

  it('offers Add only with the right to insert, and refreshes the page when the editor closes after a change', async () => {
    renderBrowser('/db/chinook/main/Customer');
    fireEvent.click(await screen.findByRole('button', { name: 'Add' }));
    // The editor and the information modal load on first use (lazy-pieces.tsx), so they appear a moment later.
    expect(await screen.findByRole('dialog', { name: 'Add row' })).toBeTruthy();
    const before = pageCalls().length;
    fireEvent.click(screen.getByRole('button', { name: 'Close after saving' }));
    await waitFor(() => expect(pageCalls().length).toBe(before + 1));

    fireEvent.click(await screen.findByText('Grace'));
    expect(await screen.findByRole('dialog', { name: 'Edit row' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Table information' }));
    expect(await screen.findByRole('dialog', { name: 'Table information' })).toBeTruthy();

    fireEvent.click(within(tablesNav()).getByRole('link', { name: 'main.Notes' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'main.Notes' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add' })).toBeNull();
  });

  it('says when the table in the address is not one of the list', async () => {
    renderBrowser('/db/chinook/main/Secret');
    expect(await screen.findByRole('heading', { level: 2, name: 'Table not found' })).toBeTruthy();
    expect(screen.queryByText(browserMessages.pageFailed)).toBeNull();
  });

  it("toasts 'No database was found.' for a database the person's links do not show", async () => {
    api.on('GET', '/api/sql/nope', fail(404, 'Not found.'));
    renderBrowser('/db/nope');
    expect(
      await screen.findByText(browserMessages.noDatabase, { selector: '.mantine-Notification-description' }),
    ).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: browserMessages.noDatabase })).toBeTruthy();
    expect(screen.queryByText(browserMessages.tableInfoFailed)).toBeNull();
  });

  it("toasts 'Failed to get databases.' and 'Failed to get table information.'", async () => {
    api.on('GET', '/api/sql', raw(new Response('', { status: 500 })));
    api.on('GET', '/api/sql/chinook', raw(new Response('', { status: 500 })));
    renderBrowser('/db/chinook');
    expect(await screen.findByText(browserMessages.databasesFailed)).toBeTruthy();
    expect(await screen.findByText(browserMessages.tableInfoFailed)).toBeTruthy();
  });

  it("toasts the server's reason when a page fails, else 'Failed to get page.'", async () => {
    api.on(
      'POST',
      '/api/sql/chinook/main/Customer/page/:page/search',
      fail(400, 'Email is not indexed, so it cannot be searched.'),
    );
    renderBrowser('/db/chinook/main/Customer?q.Email=a');
    expect(await screen.findByText('Email is not indexed, so it cannot be searched.')).toBeTruthy();

    api.on('POST', '/api/sql/chinook/main/Album/page/:page/search', raw(new Response('', { status: 502 })));
    fireEvent.click(within(tablesNav()).getByRole('link', { name: 'main.Album' }));
    expect(await screen.findByText(browserMessages.pageFailed)).toBeTruthy();
  });

  it('folds the table list above the card on a phone', async () => {
    const realMatchMedia = window.matchMedia;
    window.matchMedia = (query: string) => ({
      ...realMatchMedia(query),
      matches: query.includes('max-width'),
    });
    try {
      renderBrowser('/db/chinook');
      const toggle = screen.getByRole('button', { name: 'Tables' });
      expect(toggle.getAttribute('aria-expanded')).toBe('true');
      fireEvent.click(await within(tablesNav()).findByRole('link', { name: 'main.Album' }));
      expect(await screen.findByRole('heading', { level: 2, name: 'main.Album' })).toBeTruthy();
      const folded = screen.getByRole('button', { name: 'main.Album' });
      expect(folded.getAttribute('aria-expanded')).toBe('false');
      expect(document.activeElement).toBe(folded);
      expect(address()).toBe('/db/chinook/main/Album');
    } finally {
      window.matchMedia = realMatchMedia;
    }
  });
});

describe('filters in the browser (issue 35)', () => {
  const QUERY = '/api/sql/chinook/main/Customer/query';
  const where: FilterDocument = {
    and: [
      {
        or: [
          { column: 'FirstName', op: 'startsWith', value: 'Ad' },
          { column: 'Email', op: 'isNull' },
        ],
      },
      { column: 'SupportRepId', op: 'between', values: ['3', '5'] },
    ],
  };
  /** The filter calls made, as "{path}?{query} {body}". */
  const queryCalls = () =>
    api
      .requests()
      .filter((r) => r.pathname.includes('/query'))
      .map((r) => `${r.url} ${JSON.stringify(r.body)}`);

  beforeEach(() => {
    api.on('POST', QUERY, pageOf(70, ['Ada', 'Adam']));
  });

  it('makes exactly the spec’s calls when no filter is set', async () => {
    renderBrowser('/db/chinook/main/Customer?q.LastName=Go');
    expect(await screen.findByText('Ada')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Filter' })).toBeTruthy();
    expect(pageCalls()).toEqual(['Customer page 1 size 20 sort - {"LastName":"Go"}']);
    expect(queryCalls()).toEqual([]);
  });

  it('reads the rows of an address’s filter and the terms through …/query, with the count, and shows chips', async () => {
    renderBrowser(
      `/db/chinook/main/Customer?page=2&sort=-LastName&q.LastName=Go&where=${encodeWhere(where)}`,
    );
    expect(await screen.findByText('Adam')).toBeTruthy();
    expect(queryCalls()).toEqual([
      // The grid's pages carry long values cut (decision 0066).
      `${QUERY}?page=2&pageSize=20&orderBy=-LastName&cutText=${GRID_CUT_TEXT}&labels=1 ${JSON.stringify({ where, search: { LastName: 'Go' } })}`,
    ]);
    expect(pageCalls()).toEqual([]);
    const chips = await screen.findByRole('list', { name: 'Filter conditions' });
    expect(
      within(chips)
        .getAllByRole('listitem')
        .map((chip) => chip.textContent),
    ).toEqual(['(FirstName starts with “Ad” or Email is null)', 'SupportRepId between 3 and 5']);
    expect(within(pagerNav()).getByText(/70 rows/)).toBeTruthy();

    // A chip's x: the rest of the filter, from page 1, in the address.
    fireEvent.click(
      within(chips).getByRole('button', { name: 'Remove filter: SupportRepId between 3 and 5' }),
    );
    const rest = where.and[0]!;
    await waitFor(() =>
      expect(address()).toBe(
        `/db/chinook/main/Customer?sort=-LastName&q.LastName=Go&where=${encodeWhere(rest)}`,
      ),
    );
    await waitFor(() =>
      expect(queryCalls().at(-1)).toBe(
        `${QUERY}?page=1&pageSize=20&orderBy=-LastName&cutText=${GRID_CUT_TEXT}&labels=1 ${JSON.stringify({ where: rest, search: { LastName: 'Go' } })}`,
      ),
    );
    // Clear filter: the spec's page search again.
    fireEvent.click(screen.getByRole('button', { name: 'Clear filter' }));
    await waitFor(() => expect(address()).toBe('/db/chinook/main/Customer?sort=-LastName&q.LastName=Go'));
    await waitFor(() =>
      expect(pageCalls()).toEqual(['Customer page 1 size 20 sort -LastName {"LastName":"Go"}']),
    );
  });

  it('sends the shown page’s cursor with Next under a filter, as without one', async () => {
    api.on('POST', QUERY, (request) =>
      ok({
        results: [
          { Id: Number(request.query.get('page')), Name: `Filtered page ${request.query.get('page')}` },
        ],
        count: 70,
        countIsExact: true,
        cursor: `cursor-of-${request.query.get('page')}`,
      }),
    );
    renderBrowser(`/db/chinook/main/Customer?where=${encodeWhere(where)}`);
    expect(await screen.findByText('Filtered page 1')).toBeTruthy();
    fireEvent.click(within(pagerNav()).getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('Filtered page 2')).toBeTruthy();
    expect(api.requests('POST', QUERY).map((r) => r.query.get('cursor'))).toEqual([null, 'cursor-of-1']);
    expect(address()).toBe(`/db/chinook/main/Customer?page=2&where=${encodeWhere(where)}`);
  });

  it('says why an address’s filter does not read and shows every row', async () => {
    renderBrowser('/db/chinook/main/Customer?where=eyJvciI6W119');
    expect(
      await screen.findByText(
        /The filter in this address could not be read: .*an or needs at least one filter/,
      ),
    ).toBeTruthy();
    await waitFor(() => expect(pageCalls()).toEqual(['Customer page 1 size 20 sort - {}']));
    expect(queryCalls()).toEqual([]);
    expect(address()).toBe('/db/chinook/main/Customer');
  });

  it('drops a filter that does not fit the table, with the contract’s words', async () => {
    renderBrowser(`/db/chinook/main/Customer?where=${encodeWhere({ column: 'Nope', op: 'isNull' })}`);
    expect(
      await screen.findByText(/does not fit this table: .*Nope is not a column of this table/),
    ).toBeTruthy();
    await waitFor(() => expect(pageCalls()).toContain('Customer page 1 size 20 sort - {}'));
    await waitFor(() => expect(address()).toBe('/db/chinook/main/Customer'));
  });

  it('shows the message of a scan stopped at its budget (504) as the page’s failure', async () => {
    const stopped =
      'The filter examines every row of Customer, and its scan was stopped at 5 s after examining 1,200,000 rows. ' +
      'where (Email contains) scans: contains cannot use an index. An index on Email would make it fast.';
    api.on('POST', QUERY, fail(504, stopped));
    renderBrowser(
      `/db/chinook/main/Customer?where=${encodeWhere({ column: 'Email', op: 'contains', value: 'x' })}`,
    );
    expect(await screen.findByText(stopped, { selector: '.mantine-Notification-description' })).toBeTruthy();
    // The filter stays, to be narrowed.
    expect(await screen.findByRole('list', { name: 'Filter conditions' })).toBeTruthy();
  });
});

describe('saved views in the browser (issue 36)', () => {
  const VIEWS = '/api/sql/chinook/main/Customer/views';
  const view = (Id: number, name: string, more: Partial<SavedView> = {}): SavedView => ({
    Id,
    name,
    columns: [],
    orderBy: '-LastName',
    where: null,
    pageSize: 50,
    shared: 'everyone',
    author: 'ada',
    mine: false,
    updatedAt: '2026-12-03T08:00:00.000Z',
    dropped: [],
    problems: [],
    ...more,
  });
  const viewCalls = () => api.requests().filter((r) => r.pathname.endsWith('/views')).length;

  beforeEach(() => {
    api.on(
      'GET',
      VIEWS,
      ok([
        view(7, 'By last name'),
        view(8, 'Phone gone', {
          problems: ['The table no longer has the column Phone: left out of the view.'],
          pageSize: 20,
          orderBy: null,
        }),
      ]),
    );
  });

  it('opens the view an address names with one request more, and writes only what differs from it', async () => {
    renderBrowser('/db/chinook/main/Customer?view=7');
    expect(await screen.findByText('Ada')).toBeTruthy();
    // The page waited for the view: no page was read in the table's default order first.
    expect(pageCalls()).toEqual(['Customer page 1 size 50 sort -LastName {}']);
    expect(viewCalls()).toBe(1);
    expect(address()).toBe('/db/chinook/main/Customer?view=7');
    expect(await screen.findByRole('button', { name: /Views: By last name/ })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'LastName' }));
    await waitFor(() => expect(address()).toBe('/db/chinook/main/Customer?view=7&sort=LastName'));
    await waitFor(() => expect(pageCalls()).toContain('Customer page 1 size 50 sort LastName {}'));
    expect(screen.getByRole('button', { name: /Views: By last name \(changed\)/ })).toBeTruthy();
  });

  it('keeps what the address sets over the view', async () => {
    renderBrowser('/db/chinook/main/Customer?view=7&sort=&size=100');
    expect(await screen.findByText('Ada')).toBeTruthy();
    expect(pageCalls()).toEqual(['Customer page 1 size 100 sort - {}']);
    expect(address()).toBe('/db/chinook/main/Customer?view=7&size=100&sort=');
  });

  it('shows the table’s default with a sentence for a view that is not this person’s to open', async () => {
    renderBrowser('/db/chinook/main/Customer?view=99');
    expect(await screen.findByText(viewsTexts.addressViewMissing)).toBeTruthy();
    await waitFor(() => expect(pageCalls()).toEqual(['Customer page 1 size 20 sort - {}']));
    expect(address()).toBe('/db/chinook/main/Customer');
  });

  it('shows the table’s default with a sentence when the views cannot be read', async () => {
    api.on('GET', VIEWS, raw(new Response('', { status: 500 })));
    renderBrowser('/db/chinook/main/Customer?view=7&sort=LastName');
    expect(await screen.findByText(viewsTexts.addressViewFailed)).toBeTruthy();
    // What the address set itself stays.
    await waitFor(() => expect(pageCalls()).toEqual(['Customer page 1 size 20 sort LastName {}']));
    expect(address()).toBe('/db/chinook/main/Customer?sort=LastName');
  });

  it('opens a view from the menu, says what was left out of it, and goes back to the table’s default', async () => {
    renderBrowser('/db/chinook/main/Customer?sort=LastName');
    expect(await screen.findByText('Ada')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Views' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: /Phone gone/ }));
    await waitFor(() => expect(address()).toBe('/db/chinook/main/Customer?view=8'));
    expect(
      await screen.findByText('The table no longer has the column Phone: left out of the view.'),
    ).toBeTruthy();
    await waitFor(() => expect(pageCalls().at(-1)).toBe('Customer page 1 size 20 sort - {}'));

    fireEvent.click(screen.getByRole('button', { name: /Views: Phone gone/ }));
    fireEvent.click(await screen.findByRole('menuitem', { name: viewsTexts.tableDefault }));
    await waitFor(() => expect(address()).toBe('/db/chinook/main/Customer'));
  });
});
