import { Suspense, useState } from 'react';
import { Button } from '@mantine/core';
import { IconColumns } from '@tabler/icons-react';
import { LazyColumnsMenu, prefetchColumns } from '#web/features/browser/lazy-pieces.tsx';
import type { ColumnsMenuProps } from './columns-menu.tsx';

/*
 * The Columns button of a table's card (decision 0063). The chooser's code loads on first use, not with the browser's
 * first rows (the route's gzip budget): until then a button of the same look stands in; a hover or focus starts the
 * download, a click opens the chooser once its code is in.
 */

/** The button's text. */
export const COLUMNS_LABEL = 'Columns';

export function ColumnsEntry(props: Omit<ColumnsMenuProps, 'openAtStart'>) {
  const [clicked, setClicked] = useState(false);
  const standIn = (
    <Button
      variant={props.layout ? 'light' : 'default'}
      leftSection={<IconColumns size={16} aria-hidden="true" />}
      aria-expanded={false}
      aria-haspopup="dialog"
      onPointerEnter={prefetchColumns}
      onFocus={prefetchColumns}
      onClick={() => setClicked(true)}
      style={{ flexShrink: 0 }}
    >
      {COLUMNS_LABEL}
    </Button>
  );
  if (!clicked) return standIn;
  return (
    <Suspense fallback={standIn}>
      <LazyColumnsMenu {...props} openAtStart />
    </Suspense>
  );
}
