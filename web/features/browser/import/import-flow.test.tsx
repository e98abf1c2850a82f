import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { importMessages, type ImportPreview, type ImportStatus } from '#common/contract/imports.ts';
import { testColumn, testTable } from '#web/features/browser/test-tables.ts';
import { renderPage } from '#web/test/render-page.tsx';
import { fail, fakeApi, ok } from '#web/test/fake-api.ts';
import { ImportEntry } from './import-entry.tsx';
import { ImportWorkspace } from './import-workspace.tsx';
import { ImportPreviewSection } from './import-preview-section.tsx';
import { bulkJobNow, setBulkJob } from '#web/features/browser/bulk/bulk-job.ts';

const api = fakeApi();
const BASE = '/api/sql/chinook/main/Genre/import/0b7c3a52-5a8e-4e59-9d38-1a5cf1d1e0a1';
const ref = { db: 'chinook', schema: 'main', table: 'Genre', id: '0b7c3a52-5a8e-4e59-9d38-1a5cf1d1e0a1' };

const genre = testTable('main', 'Genre', [
  testColumn(1, 'GenreId', { type: 'integer', typeGroup: 'Number', isIdentity: true, isPrimaryKey: true }),
  testColumn(2, 'Name'),
]);

const preview: ImportPreview = {
  fileName: 'genres.csv',
  size: 90,
  options: { format: 'csv', delimiter: ',', quote: '"', header: true, encoding: 'utf-8' },
  fileColumns: ['Name', 'Label'],
  rows: [
    ['Rock', 'R'],
    [null, 'J'],
  ],
  columns: [
    {
      name: 'GenreId',
      type: 'integer',
      typeGroup: 'Number',
      required: false,
      writable: true,
      isIdentity: true,
      isPrimaryKey: true,
    },
    {
      name: 'Name',
      type: 'varchar',
      typeGroup: 'Text',
      required: true,
      writable: true,
      isIdentity: false,
      isPrimaryKey: false,
    },
  ],
  mapping: { Name: 'Name' },
  problems: [],
};

const status = (change: Partial<ImportStatus>): ImportStatus => ({
  state: 'done',
  dryRun: true,
  inProgress: false,
  percentageCompleted: 100,
  inserted: 0,
  updated: 0,
  skipped: 0,
  failed: 0,
  errors: [],
  auditId: null,
  error: null,
  ...change,
});

function workspace() {
  return renderPage(
    <ImportWorkspace
      importRef={ref}
      canUpdate={false}
      isAdmin
      uploading={false}
      onReread={() => undefined}
      onWritten={() => undefined}
      onClose={() => undefined}
    />,
  );
}

const RUNNING_ALREADY = 'This import is running already: wait for it to end.';

describe('Import… on the table card', () => {
  it('shows only with CanInsert on a table that is not a view', () => {
    const { rerender } = renderPage(<ImportEntry db="chinook" table={genre} />);
    expect(screen.getByRole('button', { name: 'Import…' })).toBeTruthy();
    rerender(<ImportEntry db="chinook" table={{ ...genre, isView: true }} />);
    expect(screen.queryByRole('button', { name: 'Import…' })).toBeNull();
    rerender(
      <ImportEntry
        db="chinook"
        table={{ ...genre, rights: { canInsert: false, canUpdate: true, canDelete: true } }}
      />,
    );
    expect(screen.queryByRole('button', { name: 'Import…' })).toBeNull();
  });
});

describe('the import workspace', () => {
  it('offers a workbook’s other sheets and reads the file again from the chosen one, with its header choice', () => {
    const asked: unknown[] = [];
    const xlsx: ImportPreview = {
      ...preview,
      fileName: 'genres.xlsx',
      options: { ...preview.options, format: 'xlsx', sheet: 'Genres', sheets: ['Genres', 'Old genres'] },
    };
    renderPage(
      <ImportPreviewSection preview={xlsx} busy={false} onReread={(options) => asked.push(options)} />,
    );
    expect(screen.getByText('genres.xlsx · read as XLSX, sheet “Genres”, with a header')).toBeTruthy();
    // An encoding means nothing to a workbook.
    expect(screen.queryByRole('combobox', { name: 'Encoding' })).toBeNull();
    fireEvent.change(screen.getByRole('combobox', { name: 'Sheet' }), { target: { value: 'Old genres' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'First row names the columns' }));
    fireEvent.click(screen.getByRole('button', { name: 'Read the file again' }));
    expect(asked).toEqual([{ header: false, sheet: 'Old genres' }]);
  });

  it('previews, blocks a mapping that leaves a required column out, dry-runs, and shows the run’s refusal', async () => {
    api.on('GET', `${BASE}/preview`, ok(preview));
    workspace();
    expect(await screen.findByRole('table', { name: 'The first 2 rows of the file' })).toBeTruthy();
    const name = screen.getByRole('combobox', { name: 'Import file column Name into' });
    expect((name as HTMLSelectElement).value).toBe('Name');
    // Upsert needs CanUpdate: not offered here.
    expect(screen.queryByRole('radio', { name: /^Upsert/ })).toBeNull();

    fireEvent.change(name, { target: { value: '' } });
    expect(await screen.findByText(importMessages.requiredUnmapped('Name'))).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Dry run' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByRole('combobox', { name: 'Import file column Label into' }), {
      target: { value: 'Name' },
    });
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Dry run' }) as HTMLButtonElement).disabled).toBe(false),
    );

    api.once(
      'POST',
      `${BASE}/run`,
      ok(status({ state: 'queued', inProgress: true, percentageCompleted: 0 })),
    );
    api.on(
      'GET',
      BASE,
      ok(
        status({
          inserted: 1,
          failed: 1,
          errors: [{ row: 2, column: 'Name', message: 'Name cannot be empty: give it a value.' }],
        }),
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Dry run' }));
    const failures = await screen.findByRole('table', { name: 'Rows that fail' });
    expect(within(failures).getByText('Name cannot be empty: give it a value.')).toBeTruthy();
    expect(api.requests('POST', `${BASE}/run`)[0]?.body).toEqual({
      mapping: { Label: 'Name' },
      mode: 'insert',
      onError: 'rollback',
      keepIdentity: false,
      dryRun: true,
    });
    // All or nothing with a failing row: the run is not offered until the person chooses to skip bad rows.
    expect((screen.getByRole('button', { name: 'Run the import…' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    fireEvent.click(screen.getByRole('radio', { name: /^Skip bad rows/ }));
    // The form changed since the dry run: another one first.
    expect(screen.queryByRole('button', { name: 'Run the import…' })).toBeNull();
    api.once(
      'POST',
      `${BASE}/run`,
      ok(status({ state: 'queued', inProgress: true, percentageCompleted: 0 })),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Dry run again' }));
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Run the import…' }) as HTMLButtonElement).disabled).toBe(
        false,
      ),
    );

    api.once('POST', `${BASE}/run`, fail(409, RUNNING_ALREADY));
    fireEvent.click(screen.getByRole('button', { name: 'Run the import…' }));
    const confirm = screen.getByRole('group', { name: 'Confirm the import' });
    expect(confirm.textContent).toContain('Import 1 row into main.Genre, skipping the 1 row that fail?');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Import' }));
    expect((await screen.findByRole('alert')).textContent).toContain(RUNNING_ALREADY);
    expect(api.requests('POST', `${BASE}/run`)[2]?.body).toMatchObject({ dryRun: false, onError: 'skip' });
  });

  it('shows a running dry run’s progress with Cancel, and what a cancel leaves', async () => {
    api.on('GET', `${BASE}/preview`, ok(preview));
    workspace();
    const dryRun = await screen.findByRole('button', { name: 'Dry run' });
    const running = status({ state: 'running', inProgress: true, percentageCompleted: 40 });
    api.once('POST', `${BASE}/run`, ok(running));
    api.on('GET', BASE, ok(running));
    fireEvent.click(dryRun);
    const progress = await screen.findByRole('progressbar', { name: 'Dry run progress' });
    expect(progress.getAttribute('aria-valuetext')).toBe('40% of the file read');
    api.once('POST', `${BASE}/cancel`, ok(status({ state: 'cancelled', percentageCompleted: 40 })));
    api.on('GET', BASE, ok(status({ state: 'cancelled', percentageCompleted: 40 })));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('The dry run was cancelled.')).toBeTruthy();
    expect(api.requests('POST', `${BASE}/cancel`)).toHaveLength(1);
  });

  it('follows a run that writes to its end: the counts, back to the table, the audit entry', async () => {
    api.on('GET', `${BASE}/preview`, ok(preview));
    let written = 0;
    let closed = 0;
    renderPage(
      <ImportWorkspace
        importRef={ref}
        canUpdate
        isAdmin
        uploading={false}
        onReread={() => undefined}
        onWritten={() => written++}
        onClose={() => closed++}
      />,
    );
    expect(await screen.findByRole('radio', { name: /^Upsert/ })).toBeTruthy();
    api.once('POST', `${BASE}/run`, ok(status({ inserted: 2 })));
    api.on('GET', BASE, ok(status({ inserted: 2 })));
    fireEvent.click(screen.getByRole('button', { name: 'Dry run' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Run the import…' }));
    const running = status({ dryRun: false, state: 'running', inProgress: true, percentageCompleted: 50 });
    api.once('POST', `${BASE}/run`, ok(running));
    api.on('GET', BASE, ok(status({ dryRun: false, inserted: 2, auditId: 42 })));
    fireEvent.click(
      within(screen.getByRole('group', { name: 'Confirm the import' })).getByRole('button', {
        name: 'Import',
      }),
    );
    expect(await screen.findByText('Import result')).toBeTruthy();
    expect(screen.getByLabelText('Counts').textContent).toContain('Inserted2');
    const audit = screen.getByRole('link', { name: 'See the audit entry #42' });
    expect(audit.getAttribute('href')).toBe('/admin/audit?table=chinook%2Fmain%2FGenre');
    expect(written).toBe(1);
    fireEvent.click(screen.getByRole('button', { name: 'Back to the table' }));
    expect(closed).toBe(1);

    // Undo: the audit entry's undo call, whose job becomes the table's bulk job, and the dialog closes.
    api.once(
      'POST',
      '/api/admin/audit/42/undo',
      ok({ undoEntryId: 43, change: 'delete', key: {}, row: null, keptKey: true, jobId: 'undo-job' }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Undo this import' }));
    await waitFor(() => expect(closed).toBe(2));
    expect(api.requests('POST', '/api/admin/audit/42/undo')).toHaveLength(1);
    expect(bulkJobNow()).toMatchObject({
      kind: 'undo',
      job: { db: 'chinook', schema: 'main', table: 'Genre', id: 'undo-job' },
      title: 'Undoing the import into main.Genre',
    });
    setBulkJob(null);
  });
});
