import { lazy, Suspense, useState } from 'react';
import { Button } from '@mantine/core';
import { IconChevronDown, IconDownload } from '@tabler/icons-react';
import type { Filter as FilterDocument } from '#common/contract/filter.ts';
import type { Filter, TableListItem } from '#common/contract/sql.ts';

export interface ExportButtonProps {
  db: string;
  table: TableListItem;
  /** The current search (column → term), filter and sort, as the grid shows them. */
  filter: Filter;
  /** The filter document (issue 35): set, the export is of the rows it keeps (…/query/export). */
  where?: FilterDocument | null;
  sort: string | null;
}

/*
 * Export's menu, its job and the progress panel (export-menu.tsx: Mantine's Menu and Progress, the export calls) load
 * on the first sign of use, not with the browser's first rows (decision 0056). Until then a button of the same look
 * stands in: a hover or focus starts the download, a click opens the menu once its code is in. The stand-in is not
 * swapped while nobody asks for the menu (a click at that moment would reach a button that had left the page); once
 * the code is in, every card shows the real one at once, so a running export keeps its lock and its panel when the
 * person moves to another table.
 */
let menuLoaded = false;
let menuAsked = false;
const loadMenu = () =>
  import('./export-menu.tsx').then((m) => {
    menuLoaded = true;
    return m;
  });
const ExportMenu = lazy(() => loadMenu().then((m) => ({ default: m.ExportMenu })));

/** Starts loading the menu's code (once; again after a failure). */
function prefetchMenu(): void {
  if (menuAsked) return;
  menuAsked = true;
  void loadMenu().catch(() => (menuAsked = false));
}

/** Export (spec 000 §4): the button opening the format menu; the job itself is export-menu.tsx's. */
export function ExportButton(props: ExportButtonProps) {
  const [clicked, setClicked] = useState(false);
  const standIn = (
    <Button
      variant="default"
      aria-haspopup="menu"
      aria-expanded={false}
      leftSection={<IconDownload size={16} aria-hidden="true" />}
      rightSection={<IconChevronDown size={14} aria-hidden="true" />}
      onPointerEnter={prefetchMenu}
      onFocus={prefetchMenu}
      onClick={() => setClicked(true)}
    >
      Export
    </Button>
  );
  if (!clicked && !menuLoaded) return standIn;
  return (
    <Suspense fallback={standIn}>
      <ExportMenu {...props} defaultOpened={clicked} />
    </Suspense>
  );
}
