import { lazy, Suspense, useState } from 'react';
import { Button } from '@mantine/core';
import { IconChevronDown, IconLayoutList } from '@tabler/icons-react';
import type { ViewsMenuProps } from './views-menu.tsx';
import { viewsTexts } from './views-texts.ts';

/*
 * The Views menu's code (the views' schemas, the save form) loads when the address names a view or a person reaches
 * for the Views button, not with the browser's first rows (decision 0056's budget), as the filter's does
 * (filter/filter-entry.tsx). Until then a button of the same look stands in.
 */
let menuLoaded = false;
let menuAsked = false;
const loadMenu = () =>
  import('./views-menu.tsx').then((m) => {
    menuLoaded = true;
    return m;
  });
const LazyViewsMenu = lazy(() => loadMenu().then((m) => ({ default: m.ViewsMenu })));

function prefetchMenu(): void {
  if (menuAsked) return;
  menuAsked = true;
  void loadMenu().catch(() => (menuAsked = false));
}

/** The Views button and menu of a table's card. */
export function ViewsEntry(props: ViewsMenuProps) {
  const [clicked, setClicked] = useState(false);
  const standIn = (
    <Button
      variant="default"
      leftSection={<IconLayoutList size={16} aria-hidden="true" />}
      rightSection={<IconChevronDown size={14} aria-hidden="true" />}
      onPointerEnter={prefetchMenu}
      onFocus={prefetchMenu}
      onClick={() => setClicked(true)}
    >
      {viewsTexts.button}
    </Button>
  );
  const wanted = clicked || menuLoaded || props.pending || props.view !== null;
  if (!wanted) return standIn;
  return (
    <Suspense fallback={standIn}>
      <LazyViewsMenu {...props} openAtStart={clicked} />
    </Suspense>
  );
}
