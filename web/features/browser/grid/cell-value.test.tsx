import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import type { CellValue as WireValue, Column } from '#common/contract/sql.ts';
import { CellValue } from './cell-value.tsx';
import { testColumn } from './grid-test-table.ts';
import { renderPage } from '#web/test/render-page.tsx';

function renderCell(column: Column, value: WireValue) {
  const { container } = renderPage(
    <span data-testid="cell">
      <CellValue column={column} value={value} />
    </span>,
  );
  const cell = container.querySelector<HTMLElement>('[data-testid="cell"]');
  if (!cell) throw new Error('The cell did not render.');
  return cell;
}

const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('CellValue', () => {
  it('shows null as a dimmed "null" for every type', () => {
    for (const typeGroup of ['Text', 'Number', 'bit', 'image', 'Date'] as const) {
      const cell = renderCell(testColumn('c', { typeGroup }), null);
      expect(cell.textContent).toBe('null');
    }
  });

  it('writes text whole when short, cut with the whole value as its title when long', () => {
    renderCell(testColumn('Name'), 'AC/DC');
    expect(screen.getByText('AC/DC').getAttribute('title')).toBeNull();
    const long = 'word '.repeat(100).trim();
    renderCell(testColumn('Notes'), long);
    const cell = screen.getByTitle(long);
    expect(cell.textContent?.endsWith('…')).toBe(true);
    expect(cell.textContent?.length).toBeLessThan(long.length);
  });

  it('writes numbers at their scale, big ones exactly', () => {
    renderCell(testColumn('Price', { typeGroup: 'Number', type: 'decimal', precision: 10, scale: 2 }), '0.9');
    expect(screen.getByText('0.90')).toBeTruthy();
    renderCell(
      testColumn('Big', { typeGroup: 'Number', type: 'int8', precision: 19 }),
      '9223372036854775807',
    );
    expect(screen.getByText('9223372036854775807')).toBeTruthy();
    renderCell(testColumn('Count', { typeGroup: 'Number', type: 'int' }), 1234);
    expect(screen.getByText('1234')).toBeTruthy();
  });

  it('writes dates short and keeps the whole value as the title', () => {
    renderCell(testColumn('Born', { typeGroup: 'Date', type: 'date' }), '2026-11-24');
    expect(screen.getByText('2026-11-24')).toBeTruthy();
    renderCell(testColumn('At', { typeGroup: 'Date', type: 'datetime2' }), '2026-11-24T14:05:33.1234567');
    expect(screen.getByText('2026-11-24 14:05').getAttribute('title')).toBe('2026-11-24T14:05:33.1234567');
    renderCell(testColumn('Call', { typeGroup: 'Time', type: 'time' }), '09:30:00');
    expect(screen.getByText('09:30')).toBeTruthy();
  });

  it('shows bit as a check box icon with a text for assistive technology', () => {
    const on = renderCell(testColumn('Active', { typeGroup: 'bit', type: 'bit' }), true);
    expect(on.textContent).toBe('Yes');
    expect(on.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true');
    const off = renderCell(testColumn('Active', { typeGroup: 'bit', type: 'bit' }), false);
    expect(off.textContent).toBe('No');
  });

  it('shows images as small thumbnails, unknown headers as jpeg', () => {
    renderCell(testColumn('Photo', { typeGroup: 'image', type: 'image' }), PNG_1X1);
    const png = screen.getByRole<HTMLImageElement>('img', { name: /Photo image \(\d+ bytes\)/ });
    expect(png.getAttribute('src')).toBe(`data:image/png;base64,${PNG_1X1}`);
    renderCell(testColumn('Scan', { typeGroup: 'image', type: 'image' }), 'AAECAw==');
    const jpeg = screen.getByRole<HTMLImageElement>('img', { name: 'Scan image (4 bytes)' });
    expect(jpeg.getAttribute('src')).toBe('data:image/jpeg;base64,AAECAw==');
  });

  it('shows binary as short hexadecimal with its size', () => {
    renderCell(testColumn('Color', { typeGroup: 'Binary', type: 'binary' }), btoa('\xff\x88\x00'));
    expect(screen.getByText('0xFF8800 (3 bytes)').getAttribute('title')).toBe('0xFF8800');
    renderCell(testColumn('Blob', { typeGroup: 'Binary', type: 'bytea' }), btoa('x'.repeat(2458)));
    expect(screen.getByText('2.4 KB binary')).toBeTruthy();
  });

  it('writes JSON on one line, its numbers as written', () => {
    renderCell(
      testColumn('Doc', { typeGroup: 'Other', type: 'jsonb' }),
      '{"a": 1, "b": [12345678901234567890]}',
    );
    expect(screen.getByText('{"a":1,"b":[12345678901234567890]}')).toBeTruthy();
  });

  it('shows guids and other values as text', () => {
    renderCell(
      testColumn('Key', { typeGroup: 'guid', type: 'uuid' }),
      '3f2504e0-4f89-11d3-9a0c-0305e82c3301',
    );
    expect(screen.getByText('3f2504e0-4f89-11d3-9a0c-0305e82c3301')).toBeTruthy();
    renderCell(testColumn('Doc', { typeGroup: 'Other', type: 'json' }), '{"a":1}');
    expect(screen.getByText('{"a":1}')).toBeTruthy();
  });
});
