import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { renderPage } from '#web/test/render-page.tsx';
import { testColumn, testTable } from '#web/features/browser/grid/grid-test-table.ts';
import { ColumnsMenu, columnsMessages } from './columns-menu.tsx';
import type { ColumnLayout } from './columns-param.ts';

// Ten columns and a hidden one: the default shows c1..c8.
const table = testTable([
  ...Array.from({ length: 10 }, (_, i) => testColumn(`c${i + 1}`)),
  testColumn('secret', { isHidden: true }),
]);

/** The chooser with its caller keeping the layout, as the page does. */
function Chooser({ onChange }: { onChange: (layout: ColumnLayout | null) => void }) {
  const [layout, setLayout] = useState<ColumnLayout | null>(null);
  return (
    <ColumnsMenu
      table={table}
      layout={layout}
      onChange={(next) => {
        onChange(next);
        setLayout(next);
      }}
    />
  );
}

const dialog = () => screen.getByRole('dialog', { hidden: true });

/** Opens the chooser with its button. */
async function open(): Promise<HTMLElement> {
  fireEvent.click(screen.getByRole('button', { name: columnsMessages.title, hidden: true }));
  // jsdom runs no transition: the dropdown stays display: none, so the queries take hidden elements.
  return screen.findByRole('dialog', { hidden: true });
}

describe('ColumnsMenu', () => {
  it('lists every readable column, the shown ones checked, and finds them by the search box', async () => {
    renderPage(<Chooser onChange={vi.fn()} />);
    const boxes = await within(await open()).findAllByRole('checkbox', { hidden: true });
    expect(boxes).toHaveLength(10);
    expect(boxes.filter((box) => (box as HTMLInputElement).checked)).toHaveLength(8);
    expect(within(dialog()).queryByText('secret', { ignore: false })).toBeNull();
    fireEvent.change(within(dialog()).getByRole('textbox', { name: columnsMessages.search, hidden: true }), {
      target: { value: 'c1' },
    });
    expect(within(dialog()).getAllByRole('checkbox', { hidden: true })).toHaveLength(2);
  });

  it('shows, moves, pins and resets, each a new layout', async () => {
    const onChange = vi.fn();
    renderPage(<Chooser onChange={onChange} />);
    await open();
    fireEvent.click(
      within(dialog()).getByRole('checkbox', { name: columnsMessages.show('c9'), hidden: true }),
    );
    expect(onChange).toHaveBeenLastCalledWith([
      ...Array.from({ length: 9 }, (_, i) => ({ name: `c${i + 1}` })),
    ]);
    fireEvent.click(within(dialog()).getByRole('button', { name: columnsMessages.up('c9'), hidden: true }));
    expect(onChange.mock.lastCall?.[0].map((entry: { name: string }) => entry.name).slice(-2)).toEqual([
      'c9',
      'c8',
    ]);
    fireEvent.click(within(dialog()).getByRole('button', { name: columnsMessages.pin('c9'), hidden: true }));
    expect(onChange.mock.lastCall?.[0][0]).toEqual({ name: 'c9', pinned: true });
    expect(
      within(dialog()).getByRole('button', { name: columnsMessages.up('c9'), hidden: true }),
    ).toHaveProperty('disabled', true);
    fireEvent.click(within(dialog()).getByRole('button', { name: columnsMessages.reset, hidden: true }));
    expect(onChange).toHaveBeenLastCalledWith(null);
    expect(
      within(dialog()).getByRole('button', { name: columnsMessages.reset, hidden: true }),
    ).toHaveProperty('disabled', true);
  });
});
