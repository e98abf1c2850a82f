import { lazy, Suspense, useCallback, useState } from 'react';
import type { Column, Row, TableListItem } from '#common/contract/sql.ts';

/** The panel's code loads on first use (the browser route has a size budget: decision 0056). */
const LazyValuePanel = lazy(() => import('./value-panel.tsx').then((m) => ({ default: m.ValuePanel })));

interface Target {
  row: Row;
  column: Column;
}

/**
 * The grid's value panel (docs/decisions/0064-rich-values.md): `show(row, column)` opens it on one value; `panel`
 * is the element the grid renders (nothing until the first show). The panel stays mounted after it closes so its
 * closing transition runs and the focus goes back to where it was.
 */
export function useValuePanel(table: TableListItem) {
  const [target, setTarget] = useState<Target | null>(null);
  const [opened, setOpened] = useState(false);
  const show = useCallback((row: Row, column: Column) => {
    setTarget({ row, column });
    setOpened(true);
  }, []);
  const panel = target && (
    <Suspense fallback={null}>
      <LazyValuePanel
        table={table}
        row={target.row}
        column={target.column}
        opened={opened}
        onClose={() => setOpened(false)}
      />
    </Suspense>
  );
  return { show, panel };
}
