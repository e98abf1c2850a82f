import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { notifyManager } from '@tanstack/react-query';
import type { ExportStatus } from '#common/contract/exports.ts';
import type { Filter } from '#common/contract/filter.ts';
import type { TableListItem } from '#common/contract/sql.ts';
import { EXPORT_POLL_DELAY_MS } from '#common/limits.ts';
import { browserMessages, exportMessages } from '#common/messages.ts';
import { theme } from '#web/ui/theme.ts';
// The toast stack loads with the first toast (decision 0033): loaded here, ahead, since a module's first load is real
// time that the test's turns do not wait for (the first toast of the file was missed, on this machine every time).
import '#web/ui/toast-stack.tsx';
// The same for the menu, which the button loads on its first use (decision 0056).
import './export-menu.tsx';
import { ExportButton } from './export-button.tsx';
import { exportJobReducer, idleExport, resetExportJob } from './use-export-job.ts';
import { progressText, timeLeftText } from './export-progress-text.ts';
import { renderPage } from '#web/test/render-page.tsx';
import { fail, fakeApi, ok, raw, reply } from '#web/test/fake-api.ts';

const ID = '7d1f3c2e-8a4b-4c5d-9e6f-0a1b2c3d4e5f';
const ID2 = '0b9e8d7c-6b5a-4f3e-8d2c-1b0a9f8e7d6c';
const BASE = '/api/sql/Chinook/dbo/Invoice/export';
const URL_ONCE = `/api/exports/${ID}/file?t=${'a'.repeat(43)}`;

const invoice = {
  id: 'Chinook/dbo/Invoice',
  schema: 'dbo',
  name: 'Invoice',
  isView: false,
  numberOfColumns: 0,
  numberOfRows: 412,
  numberOfRowsIsEstimate: false,
  hasIdentity: true,
  hasGuid: false,
  primaryKey: ['InvoiceId'],
  identityColumn: 'InvoiceId',
  guidColumn: null,
  columns: [],
  indexes: [],
  foreignKeys: [],
  rights: { canInsert: true, canUpdate: true, canDelete: true },
} satisfies TableListItem;

function status(overrides: Partial<ExportStatus>): ExportStatus {
  return {
    id: ID,
    state: 'running',
    inProgress: true,
    percentageCompleted: 0,
    percentageRemaining: 100,
    secondsRemaining: null,
    data: null,
    url: null,
    format: 'csv',
    rowsWritten: 0,
    rowsTotal: 412,
    rowsTotalIsEstimate: false,
    error: null,
    ...overrides,
  };
}
const running = (percent: number, seconds: number | null) =>
  status({ percentageCompleted: percent, percentageRemaining: 100 - percent, secondsRemaining: seconds });
const done = status({
  state: 'done',
  inProgress: false,
  percentageCompleted: 100,
  percentageRemaining: 0,
  secondsRemaining: 0,
  data: 'Invoice.csv',
  url: URL_ONCE,
  rowsWritten: 412,
});

const api = fakeApi();
const fetchMock = api.fetch;
const requests = () => fetchMock.mock.calls.map(([url, init]) => `${init.method ?? 'GET'} ${url}`);
const statusReads = () => requests().filter((r) => r === `GET ${BASE}/${ID}`).length;
const clicked = vi.fn<(link: HTMLAnchorElement) => void>();

beforeEach(() => {
  // Timers are the test's; setImmediate stays real so fetch's response bodies (read by Node's streams) resolve.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  // TanStack Query hands its updates to React on a zero timeout, which a fake clock started inside a tick delays
  // by a millisecond: on a microtask here, so an update lands in the act() that caused it.
  notifyManager.setScheduler(queueMicrotask);
  notifications.clean();
  resetExportJob();
  clicked.mockReset();
  // jsdom cannot navigate: the download link's click is recorded instead.
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked(this);
  });
});
afterEach(() => {
  notifyManager.setScheduler((callback) => setTimeout(callback, 0));
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Lets timers run for this long, then the answers of the fetches they made and the renders that follow. */
async function advance(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
  // A few turns of real I/O (response bodies) and the zero timers that follow them.
  for (let turn = 0; turn < 10; turn += 1) {
    await act(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      await vi.advanceTimersByTimeAsync(0);
    });
  }
}

function renderButton(where: Filter | null = null) {
  return renderPage(
    // Mantine's test environment: no transitions, and the menu is not hidden for its zero-size target (jsdom lays
    // nothing out).
    <MantineProvider env="test" theme={theme}>
      <ExportButton
        db="Chinook"
        table={invoice}
        filter={{ BillingCity: 'Ber' }}
        where={where}
        sort="-InvoiceDate"
      />
    </MantineProvider>,
  );
}

const exportButton = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Export' });

async function exportAs(format: string) {
  fireEvent.click(exportButton());
  await advance(300);
  fireEvent.click(screen.getByRole('menuitem', { name: format }));
  await advance(0);
}

const progressbar = () => screen.queryByRole('progressbar', { name: 'Export progress' });

describe('ExportButton', () => {
  it('offers CSV, CSV for Excel, JSON Lines and Excel (XLSX)', async () => {
    renderButton();
    fireEvent.click(exportButton());
    await advance(300);
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      'CSV',
      'CSV for Excel',
      'JSON Lines',
      'Excel (XLSX)',
    ]);
  });

  it('exports exactly the filtered rows through …/query/export when a filter is set (issue 35)', async () => {
    const where: Filter = {
      or: [
        { column: 'Total', op: 'between', values: ['5', '10'] },
        { column: 'BillingCountry', op: 'isNull' },
      ],
    };
    api.once('POST', `/api/sql/Chinook/dbo/Invoice/query/export`, ok({ id: ID }, exportMessages.started));
    api.once('GET', `${BASE}/${ID}`, ok(done));
    renderButton(where);
    await exportAs('CSV for Excel');

    const [url, init] = fetchMock.mock.calls[0]!;
    expect(init.method).toBe('POST');
    expect(url).toBe('/api/sql/Chinook/dbo/Invoice/query/export?orderBy=-InvoiceDate');
    expect(JSON.parse(decodeURIComponent(atob(String(init.body))))).toEqual({
      where,
      search: { BillingCity: 'Ber' },
      format: 'csv',
      bom: true,
    });
    await advance(EXPORT_POLL_DELAY_MS);
    expect(statusReads()).toBe(1);
    expect(clicked).toHaveBeenCalledTimes(1);
  });

  it('starts the export of the search and sort, reads the status after 2 s and every 2 s, then toasts and downloads', async () => {
    api.once('POST', BASE, ok({ id: ID }, exportMessages.started));
    api.once('GET', `${BASE}/${ID}`, ok(running(40, 130)));
    api.once('GET', `${BASE}/${ID}`, ok(done));
    renderButton();
    await exportAs('Excel (XLSX)');

    const [url, init] = fetchMock.mock.calls[0]!;
    expect(init.method).toBe('POST');
    expect(url).toBe(`${BASE}?orderBy=-InvoiceDate&format=xlsx`);
    expect(JSON.parse(decodeURIComponent(atob(String(init.body))))).toEqual({ BillingCity: 'Ber' });

    // Before the first read: "Starting…", and no second export.
    expect(progressbar()?.getAttribute('aria-valuetext')).toBe('Starting…');
    expect(screen.getByText('Starting…')).toBeTruthy();
    expect(exportButton().disabled).toBe(true);

    await advance(EXPORT_POLL_DELAY_MS - 1);
    expect(statusReads()).toBe(0);
    await advance(1);
    expect(statusReads()).toBe(1);
    expect(progressbar()?.getAttribute('aria-valuenow')).toBe('40');
    expect(screen.getByText('40% · about 2 min left')).toBeTruthy();
    expect(clicked).not.toHaveBeenCalled();

    await advance(EXPORT_POLL_DELAY_MS);
    expect(statusReads()).toBe(2);
    expect(screen.getByText(browserMessages.exportCompleted)).toBeTruthy();
    expect(clicked).toHaveBeenCalledTimes(1);
    const link = clicked.mock.calls[0]![0];
    expect(link.getAttribute('href')).toBe(URL_ONCE);
    expect(link.getAttribute('download')).toBe('Invoice.csv');
    expect(link.isConnected).toBe(false);
    expect(progressbar()).toBeNull();
    expect(exportButton().disabled).toBe(false);

    // Done: no more reads (the link is single use and each read makes a new one).
    await advance(EXPORT_POLL_DELAY_MS * 3);
    expect(statusReads()).toBe(2);
  });

  it('keeps the job when the button mounts afresh (another table): progress, lock, toast and download go on', async () => {
    api.once('POST', BASE, ok({ id: ID }, exportMessages.started));
    api.once('GET', `${BASE}/${ID}`, ok(running(40, 130)));
    api.once('GET', `${BASE}/${ID}`, ok(done));
    const first = renderButton();
    await exportAs('CSV');
    await advance(EXPORT_POLL_DELAY_MS);
    expect(screen.getByText('40% · about 2 min left')).toBeTruthy();
    first.unmount();

    renderButton();
    expect(progressbar()?.getAttribute('aria-valuenow')).toBe('40');
    expect(exportButton().disabled).toBe(true);
    await advance(EXPORT_POLL_DELAY_MS);
    expect(screen.getByText(browserMessages.exportCompleted)).toBeTruthy();
    expect(clicked).toHaveBeenCalledTimes(1);
    expect(exportButton().disabled).toBe(false);
  });

  it('cancels: the server says so, polling stops and a new export may start', async () => {
    api.once('POST', BASE, ok({ id: ID }, exportMessages.started));
    api.once('GET', `${BASE}/${ID}`, ok(running(10, 20)));
    api.once(
      'POST',
      `${BASE}/${ID}/cancel`,
      ok(status({ state: 'cancelled', inProgress: false }), exportMessages.cancelled),
    );
    renderButton();
    await exportAs('CSV for Excel');
    expect(fetchMock.mock.calls[0]![0]).toBe(`${BASE}?orderBy=-InvoiceDate&format=csv&bom=true`);
    await advance(EXPORT_POLL_DELAY_MS);
    expect(screen.getByText('10% · less than a minute left')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Cancel export' }));
    await advance(0);
    expect(requests()).toContain(`POST ${BASE}/${ID}/cancel`);
    expect(screen.getByText(exportMessages.cancelled)).toBeTruthy();
    expect(progressbar()).toBeNull();
    expect(exportButton().disabled).toBe(false);
    await advance(EXPORT_POLL_DELAY_MS * 3);
    expect(statusReads()).toBe(1);
    expect(clicked).not.toHaveBeenCalled();
  });

  it('a Cancel that comes as the export finishes has one outcome: completed and downloaded (issue 32)', async () => {
    api.once('POST', BASE, ok({ id: ID }, exportMessages.started));
    api.once('GET', `${BASE}/${ID}`, ok(running(90, 2)));
    api.once('GET', `${BASE}/${ID}`, ok(done));
    // The export ended before the cancel reached it: the server answers how it ended.
    api.once('POST', `${BASE}/${ID}/cancel`, ok({ ...done, url: null }, exportMessages.alreadyEnded));
    renderButton();
    await exportAs('CSV');
    await advance(EXPORT_POLL_DELAY_MS);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel export' }));
    await advance(0);
    expect(requests()).toContain(`POST ${BASE}/${ID}/cancel`);
    await advance(EXPORT_POLL_DELAY_MS);
    expect(screen.getByText(browserMessages.exportCompleted)).toBeTruthy();
    expect(clicked).toHaveBeenCalledTimes(1);
    expect(screen.queryByText(exportMessages.alreadyEnded)).toBeNull();
    expect(screen.queryByText(exportMessages.cancelled)).toBeNull();
    expect(document.querySelectorAll('.mantine-Notification-root')).toHaveLength(1);
    expect(exportButton().disabled).toBe(false);
  });

  it("shows the server's 409 when an export is already running", async () => {
    api.once('POST', BASE, fail(409, exportMessages.alreadyRunning));
    renderButton();
    await exportAs('JSON Lines');
    expect(screen.getByText(exportMessages.alreadyRunning)).toBeTruthy();
    expect(progressbar()).toBeNull();
    expect(exportButton().disabled).toBe(false);
    await advance(EXPORT_POLL_DELAY_MS * 2);
    expect(statusReads()).toBe(0);
  });

  it("shows the server's reason when the export fails, and 'Failed to export.' when it gives none", async () => {
    api.once('POST', BASE, ok({ id: ID }, exportMessages.started));
    api.once('POST', BASE, ok({ id: ID2 }, exportMessages.started));
    // A failed export answers its status with isSuccess false, its reason as the message.
    const failed = status({ state: 'failed', inProgress: false, error: exportMessages.failed });
    api.once(
      'GET',
      `${BASE}/${ID}`,
      reply(200, { isSuccess: false, data: failed, message: exportMessages.failed }),
    );
    api.once('GET', `${BASE}/${ID2}`, raw(new Response('Bad gateway', { status: 502 })));
    renderButton();
    await exportAs('CSV');
    await advance(EXPORT_POLL_DELAY_MS);
    expect(screen.getByText(exportMessages.failed)).toBeTruthy();
    expect(progressbar()).toBeNull();
    expect(exportButton().disabled).toBe(false);

    await exportAs('CSV');
    await advance(EXPORT_POLL_DELAY_MS);
    expect(screen.getByText(browserMessages.exportFailed)).toBeTruthy();
    expect(progressbar()).toBeNull();
    await advance(EXPORT_POLL_DELAY_MS * 2);
    expect(statusReads()).toBe(1);
    expect(requests().filter((r) => r === `GET ${BASE}/${ID2}`)).toHaveLength(1);
    expect(clicked).not.toHaveBeenCalled();
  });
});

describe('the export job', () => {
  it('moves idle → starting → running → done, and refuses a second start while busy', () => {
    let state = exportJobReducer(idleExport, { type: 'start', format: 'csv' });
    expect(state.phase).toBe('starting');
    expect(exportJobReducer(state, { type: 'start', format: 'xlsx' })).toBe(state);
    state = exportJobReducer(state, { type: 'started', job: { db: 'd', schema: 's', table: 't', id: ID } });
    expect(state.phase).toBe('running');
    state = exportJobReducer(state, { type: 'done', status: done });
    expect(state.phase).toBe('done');
    expect(exportJobReducer(state, { type: 'start', format: 'xlsx' }).phase).toBe('starting');
  });

  it('says the time left in words', () => {
    expect(timeLeftText(0)).toBe('less than a minute left');
    expect(timeLeftText(59)).toBe('less than a minute left');
    expect(timeLeftText(130)).toBe('about 2 min left');
    expect(timeLeftText(89 * 60)).toBe('about 89 min left');
    expect(timeLeftText(3 * 3600)).toBe('about 3 h left');
    expect(progressText(null)).toBe('Starting…');
    expect(progressText(running(0, null))).toBe('Starting…');
    expect(progressText(running(12, null))).toBe('12%');
  });
});
