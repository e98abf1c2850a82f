import { lazy, Suspense, useState } from 'react';
import { Button } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import type { FilterBarProps } from './filter-bar.tsx';

/*
 * The filter bar's code (chips, the filter document's schema and rules, filter-bar.tsx) loads when a view has a filter
 * or a person reaches for the Filter button, not with the browser's first rows (issue 35, decision 0056's budget).
 * Until then a button of the same look stands in: a hover or focus starts the download, a click opens the builder
 * once the code is in. Once it is in, every card shows the real bar at once.
 */
let barLoaded = false;
let barAsked = false;
const loadBar = () =>
  import('./filter-bar.tsx').then((m) => {
    barLoaded = true;
    return m;
  });
const LazyFilterBar = lazy(() => loadBar().then((m) => ({ default: m.FilterBar })));

/** Starts loading the bar's code (once; again after a failure). */
function prefetchBar(): void {
  if (barAsked) return;
  barAsked = true;
  void loadBar().catch(() => (barAsked = false));
}

/** The Filter button, chips and builder of a table's card. */
export function FilterEntry(props: FilterBarProps) {
  const [clicked, setClicked] = useState(false);
  const standIn = (
    <Button
      variant="default"
      leftSection={<IconFilter size={16} aria-hidden="true" />}
      aria-expanded={false}
      onPointerEnter={prefetchBar}
      onFocus={prefetchBar}
      onClick={() => setClicked(true)}
    >
      Filter
    </Button>
  );
  const wanted = clicked || barLoaded || props.where !== null || props.whereProblem !== null;
  if (!wanted) return standIn;
  return (
    <Suspense fallback={<div>{standIn}</div>}>
      <LazyFilterBar {...props} openAtStart={clicked} />
    </Suspense>
  );
}
