import { lazy } from 'react';
import { Loader, Portal } from '@mantine/core';

/*
 * The card's pieces that wait for a person's action load on first use, so the browser's first rows do not wait for
 * their code: the row editor (with @mantine/dates and dayjs, the history tab and the row fields) and the table
 * information modal, the information button's tooltip, the column chooser and the reader of an address's row. A hover
 * or focus on what opens them starts the download
 * ahead of the click.
 */

const loadEditor = () => import('#web/features/browser/editor/row-editor.tsx');
const loadInfo = () => import('#web/features/browser/info/table-info-modal.tsx');
const loadColumns = () => import('#web/features/browser/columns/columns-menu.tsx');

export const LazyRowEditor = lazy(() => loadEditor().then((m) => ({ default: m.RowEditor })));
export const LazyTableInfoModal = lazy(() => loadInfo().then((m) => ({ default: m.TableInfoModal })));
/** The information button's tooltip, mounted on the first hover or focus (decision 0056). */
export const LazyInfoTooltip = lazy(() =>
  import('#web/features/browser/info-tooltip.tsx').then((m) => ({ default: m.InfoTooltip })),
);

/** The reader of the row an address names (`row=`, decision 0067): loaded when an address names one. */
export const LazyAddressRow = lazy(() =>
  import('#web/features/browser/address-row.tsx').then((m) => ({ default: m.AddressRow })),
);

/** The column chooser (decision 0063), with its popover: loaded on the first click of Columns. */
export const LazyColumnsMenu = lazy(() => loadColumns().then((m) => ({ default: m.ColumnsMenu })));

/** The bulk bar, its dialogs and the job's panel (issue 38): loaded when the first row is selected. */
export const LazyBulkBar = lazy(() =>
  import('#web/features/browser/bulk/bulk-bar.tsx').then((m) => ({ default: m.BulkBar })),
);

let editorAsked = false;
let columnsAsked = false;
let infoAsked = false;

/** Starts loading the row editor's code (once). */
export function prefetchEditor(): void {
  if (editorAsked) return;
  editorAsked = true;
  void loadEditor().catch(() => (editorAsked = false));
}

/** Starts loading the table information modal's code (once). */
export function prefetchInfo(): void {
  if (infoAsked) return;
  infoAsked = true;
  void loadInfo().catch(() => (infoAsked = false));
}

/** Starts loading the column chooser's code (once). */
export function prefetchColumns(): void {
  if (columnsAsked) return;
  columnsAsked = true;
  void loadColumns().catch(() => (columnsAsked = false));
}

/** What shows while a modal's code loads (mostly a few milliseconds): a spinner in the middle of the window. */
export function ModalLoading({ label }: { label: string }) {
  return (
    <Portal>
      <Loader
        role="status"
        aria-label={label}
        style={{
          position: 'fixed',
          top: '50%',
          left: '50%',
          transform: 'translate(-50%, -50%)',
          zIndex: 300,
        }}
      />
    </Portal>
  );
}
