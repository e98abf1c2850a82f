import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Row } from '#common/contract/sql.ts';
import { fakeApi, fail, ok } from '#web/test/fake-api.ts';
import { renderPage } from '#web/test/render-page.tsx';
import { DataGrid } from '#web/features/browser/grid/data-grid.tsx';
import { testColumn, testTable } from '#web/features/browser/grid/grid-test-table.ts';
import { showValueMessages } from './show-value-button.tsx';
import { downloadName, hexLines } from './value-download.ts';
import { valuePanelMessages } from './value-panel.tsx';

const api = fakeApi();

const long = `${'A long note. '.repeat(40)}The end.`;
const doc = '{"name": "Ada", "tags": ["x", "y"], "big": 12345678901234567890}';
const blob = btoa(String.fromCharCode(...Array.from({ length: 300 }, (_, i) => i % 256)));
const table = {
  ...testTable([
    testColumn('Id', { typeGroup: 'Number', type: 'int4', isIndexed: true, isPrimaryKey: true }),
    testColumn('Note', { type: 'text', maxLength: -1 }),
    testColumn('Doc', { typeGroup: 'Other', type: 'jsonb', maxLength: -1 }),
    testColumn('Data', { typeGroup: 'Binary', type: 'bytea', maxLength: -1 }),
    testColumn('Short'),
  ]),
  primaryKey: ['Id'],
};
const row: Row = { Id: 7, Note: long, Doc: doc, Data: blob, Short: 'fits' };
const QUERY = '/api/sql/demo/main/products/query';
const answer = (rows: Row[]) => ok({ results: rows, count: rows.length, countIsExact: true, cursor: null });

function renderGrid(onOpenRow = vi.fn()) {
  renderPage(
    <DataGrid
      table={table}
      rows={[row]}
      sort={null}
      onSortChange={() => undefined}
      onOpenRow={onOpenRow}
      loading={false}
      stale={false}
    />,
  );
  return onOpenRow;
}

const panel = () => screen.findByRole('dialog');

afterEach(() => vi.restoreAllMocks());

describe('the value panel', () => {
  it('offers long text, JSON and binary whole, and not what fits its cell', () => {
    renderGrid();
    for (const column of ['Note', 'Doc', 'Data'])
      expect(screen.getByRole('button', { name: showValueMessages.show(column) })).toBeTruthy();
    expect(screen.queryByRole('button', { name: showValueMessages.show('Short') })).toBeNull();
    expect(screen.queryByRole('button', { name: showValueMessages.show('Id') })).toBeNull();
    // JSON on one line in its cell, long binary as its size.
    expect(screen.getByText('{"name":"Ada","tags":["x","y"],"big":12345678901234567890}')).toBeTruthy();
    expect(screen.getByText('300 bytes binary')).toBeTruthy();
  });

  it('reads the value again by the row key and shows it whole with its length, without opening the row', async () => {
    api.on('POST', QUERY, answer([row]));
    const onOpenRow = renderGrid();
    fireEvent.click(screen.getByRole('button', { name: showValueMessages.show('Note') }));
    const dialog = await panel();
    expect(onOpenRow).not.toHaveBeenCalled();
    expect(within(dialog).getByText(long)).toBeTruthy();
    expect(within(dialog).getByText(`text · ${valuePanelMessages.characters(long.length)}`)).toBeTruthy();
    await waitFor(() => expect(api.requests('POST', QUERY)).toHaveLength(1));
    expect(api.requests('POST', QUERY)[0]?.body).toEqual({
      where: { and: [{ column: 'Id', op: 'eq', value: 7 }] },
    });
  });

  it('says when the value changed since the page was read, and shows it as it is now', async () => {
    api.on('POST', QUERY, answer([{ ...row, Note: 'Rewritten since.' }]));
    renderGrid();
    fireEvent.click(screen.getByRole('button', { name: showValueMessages.show('Note') }));
    const dialog = await panel();
    expect(await within(dialog).findByText(valuePanelMessages.changed)).toBeTruthy();
    expect(within(dialog).getByText('Rewritten since.')).toBeTruthy();
  });

  it('keeps the page value and says why when the row cannot be read again', async () => {
    api.on('POST', QUERY, fail(403, 'You may not read this table.'));
    renderGrid();
    fireEvent.click(screen.getByRole('button', { name: showValueMessages.show('Note') }));
    const dialog = await panel();
    expect(
      await within(dialog).findByText(valuePanelMessages.failed('You may not read this table.')),
    ).toBeTruthy();
    expect(within(dialog).getByText(long)).toBeTruthy();
  });

  it('shows JSON as a tree and binary with a download, and opens on Shift+Enter', async () => {
    api.on('POST', QUERY, answer([row]));
    renderGrid();
    fireEvent.click(screen.getByRole('button', { name: showValueMessages.show('Doc') }));
    let dialog = await panel();
    expect(within(dialog).getByRole('button', { name: /^\{/ }).getAttribute('aria-expanded')).toBe('true');
    expect(within(dialog).getByText('12345678901234567890')).toBeTruthy();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    const dataCell = screen.getByText('300 bytes binary').closest('td');
    if (!dataCell) throw new Error('no cell');
    dataCell.focus();
    fireEvent.keyDown(dataCell, { key: 'Enter', shiftKey: true });
    dialog = await panel();
    expect(within(dialog).getByText(/bytea · 300 bytes/)).toBeTruthy();
    expect(within(dialog).getByText(valuePanelMessages.firstBytes(256))).toBeTruthy();
    const created = vi.fn((_blob: Blob) => 'blob:value');
    const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
    URL.createObjectURL = created;
    URL.revokeObjectURL = vi.fn();
    onTestFinished(() => {
      URL.createObjectURL = original.create;
      URL.revokeObjectURL = original.revoke;
    });
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      expect(this.download).toBe('products-7-Data.bin');
    });
    fireEvent.click(within(dialog).getByRole('button', { name: valuePanelMessages.download }));
    expect(clicked).toHaveBeenCalledOnce();
    const saved = created.mock.calls[0]?.[0];
    expect(saved?.size).toBe(300);
  });
});

describe('value downloads', () => {
  it('names the file <table>-<key>-<column>.bin, safely', () => {
    expect(downloadName('products', { Id: 7 }, 'Data')).toBe('products-7-Data.bin');
    expect(downloadName('a/b', { A: 1, B: 'x:y' }, 'c')).toBe('a_b-1-x_y-c.bin');
    expect(downloadName('t', null, 'c')).toBe('t-row-c.bin');
  });

  it('writes bytes as hexadecimal lines with offsets', () => {
    expect(hexLines(new Uint8Array([0, 1, 255]), 256)).toEqual(['00000000  00 01 FF']);
    expect(hexLines(new Uint8Array(40), 20)).toHaveLength(2);
  });
});
