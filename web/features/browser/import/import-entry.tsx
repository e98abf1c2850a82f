import { lazy, Suspense, useState } from 'react';
import { Button } from '@mantine/core';
import type { TableListItem } from '#common/contract/sql.ts';
import { ModalLoading } from '#web/features/browser/lazy-pieces.tsx';

/*
 * Import… on the table's card (issue 39): only with CanInsert on a table that is not a view, as the server decides.
 * The flow (its dialog, the upload, the mapping, the runs) is a chunk of its own, loaded on the first hover, focus or
 * click: the browser's first visit carries only this button (decision 0069 "The import page").
 */
const loadFlow = () => import('./import-flow.tsx');
const ImportFlow = lazy(() => loadFlow().then((m) => ({ default: m.ImportFlow })));
let asked = false;
const prefetch = () => {
  if (asked) return;
  asked = true;
  void loadFlow().catch(() => (asked = false));
};

export function ImportEntry({ db, table }: { db: string; table: TableListItem }) {
  const [opened, setOpened] = useState(false);
  const [used, setUsed] = useState(false);
  if (!table.rights.canInsert || table.isView) return null;
  return (
    <>
      <Button
        variant="default"
        onPointerEnter={prefetch}
        onFocus={prefetch}
        onClick={() => {
          setUsed(true);
          setOpened(true);
        }}
      >
        Import…
      </Button>
      {used && (
        <Suspense fallback={opened && <ModalLoading label="Loading the import" />}>
          <ImportFlow key={table.id} db={db} table={table} opened={opened} onClose={() => setOpened(false)} />
        </Suspense>
      )}
    </>
  );
}
