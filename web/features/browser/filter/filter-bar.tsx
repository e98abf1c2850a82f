import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { Alert, Badge, Box, Button, Group, Loader, Text } from '@mantine/core';
import { IconFilter, IconX } from '@tabler/icons-react';
import { filterProblems, type Filter } from '#common/contract/filter.ts';
import type { TableListItem } from '#common/contract/sql.ts';
import { draftConditions, draftOf, filterOf, type DraftNode } from './filter-draft.ts';
import { nodeText } from './filter-text.ts';

/*
 * The filter's place on the card (issue 35), under the spec's search form and above the grid: the Filter button that
 * opens the builder (its code loads on the first sign of use, filter-builder.tsx), the applied filter as chips (a
 * click edits that part in the builder, x removes it), and why a filter from the address was refused. The filter
 * itself lives in the address (browser-address.ts); the page's calls, its count and the export follow it. This file
 * loads when a view has a filter or a person reaches for the button (filter-entry.tsx stands in until then).
 */

const loadBuilder = () => import('./filter-builder.tsx');
const FilterBuilder = lazy(loadBuilder);
let builderAsked = false;

/** Starts loading the builder's code (once; again after a failure). */
function prefetchBuilder(): void {
  if (builderAsked) return;
  builderAsked = true;
  void loadBuilder().catch(() => (builderAsked = false));
}

export interface FilterBarProps {
  db: string;
  table: TableListItem;
  sort: string | null;
  /** The applied filter (null: none). */
  where: Filter | null;
  /** Why the address's filter was refused, shown until dismissed. */
  whereProblem: string | null;
  /** Applies a filter (null removes it); the caller goes back to page 1. */
  onApply: (where: Filter | null) => void;
  /** Drops the filter with the sentence saying why (a string), or hides the sentence (null). */
  onRefuse: (problem: string | null) => void;
}

export interface FilterBarLoadedProps extends FilterBarProps {
  /** Open the builder at once: the stand-in button was clicked while this loaded. */
  openAtStart?: boolean;
}

export function FilterBar({
  db,
  table,
  sort,
  where,
  whereProblem,
  onApply,
  onRefuse,
  openAtStart = false,
}: FilterBarLoadedProps) {
  // The builder, open with the node to focus first; `asked` counts the requests so a chip clicked while it is open
  // moves the focus again.
  const [open, setOpen] = useState<{ focus: string | null; asked: number } | null>(() =>
    openAtStart ? { focus: null, asked: 1 } : null,
  );
  const filterButton = useRef<HTMLButtonElement>(null);
  const chipList = useRef<HTMLDivElement>(null);
  const builderId = useId();

  // A filter from the address that does not fit this table (a column it does not have, an operator its type does not
  // take) is dropped with the contract's words, and every row shows.
  const misfit = where ? filterProblems(where, table.columns)[0] : undefined;
  useEffect(() => {
    if (misfit)
      onRefuse(`The filter in this address does not fit this table: ${misfit.message} Every row is shown.`);
  }, [misfit, onRefuse]);

  // After a chip is removed the focus goes to the next chip, else the Filter button (after the render without it).
  const focusChip = useRef<number | null>(null);
  useEffect(() => {
    const index = focusChip.current;
    if (index === null) return;
    focusChip.current = null;
    const chips = chipList.current?.querySelectorAll<HTMLButtonElement>('button[data-chip="edit"]') ?? [];
    (chips[Math.min(index, chips.length - 1)] ?? filterButton.current)?.focus();
  });

  const draft = where && !misfit ? draftOf(where) : null;
  const root = draft?.root ?? null;
  // The chips: the root's parts (a negated root is one chip).
  const parts: DraftNode[] = root ? (root.not ? [root] : root.items) : [];
  const count = root ? draftConditions(root).length : 0;

  const openAt = (focus: string | null) => {
    prefetchBuilder();
    setOpen((current) => ({ focus, asked: (current?.asked ?? 0) + 1 }));
  };
  const close = () => {
    setOpen(null);
    requestAnimationFrame(() => filterButton.current?.focus());
  };
  const removePart = (index: number) => {
    if (!draft || !root) return;
    if (root.not) {
      onApply(null);
    } else {
      const items = root.items.filter((_, i) => i !== index);
      onApply(filterOf({ ...draft, root: { ...root, items } }, table.columns).filter);
    }
    focusChip.current = index;
  };

  return (
    <Box>
      {whereProblem && (
        <Alert
          color="yellow"
          variant="light"
          mb="xs"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => onRefuse(null)}
        >
          {whereProblem}
        </Alert>
      )}
      <Group gap="xs" wrap="wrap" align="center">
        <Button
          ref={filterButton}
          variant={where ? 'light' : 'default'}
          leftSection={<IconFilter size={16} aria-hidden="true" />}
          rightSection={
            count > 0 ? (
              <Badge size="sm" circle aria-hidden="true">
                {count}
              </Badge>
            ) : undefined
          }
          aria-expanded={open !== null}
          aria-controls={open ? builderId : undefined}
          onPointerEnter={prefetchBuilder}
          onFocus={prefetchBuilder}
          onClick={() => (open ? close() : openAt(null))}
        >
          Filter
        </Button>
        {root && parts.length > 0 && (
          <>
            {root.join === 'or' && parts.length > 1 && (
              <Text size="sm" c="dimmed">
                Any of:
              </Text>
            )}
            <Group
              ref={chipList}
              component="ul"
              aria-label="Filter conditions"
              gap={6}
              wrap="wrap"
              style={{ listStyle: 'none', margin: 0, padding: 0, minWidth: 0 }}
            >
              {parts.map((part, index) => {
                const text = nodeText(part, table.columns);
                return (
                  <Box component="li" key={part.id} style={{ maxWidth: '100%', minWidth: 0 }}>
                    <Button.Group style={{ maxWidth: '100%' }}>
                      <Button
                        size="compact-sm"
                        variant="light"
                        radius="xl"
                        title={text}
                        aria-label={`Edit filter: ${text}`}
                        data-chip="edit"
                        onPointerEnter={prefetchBuilder}
                        onClick={() => openAt(part.id)}
                        styles={{ root: { minWidth: 0, maxWidth: '100%' }, label: { overflow: 'hidden' } }}
                        style={{ flex: '0 1 auto' }}
                      >
                        <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                          {text}
                        </span>
                      </Button>
                      <Button
                        size="compact-sm"
                        variant="light"
                        radius="xl"
                        px={6}
                        aria-label={`Remove filter: ${text}`}
                        onClick={() => removePart(index)}
                        style={{ flexShrink: 0 }}
                      >
                        <IconX size={14} aria-hidden="true" />
                      </Button>
                    </Button.Group>
                  </Box>
                );
              })}
            </Group>
            <Button size="compact-sm" variant="subtle" color="gray" onClick={() => onApply(null)}>
              Clear filter
            </Button>
          </>
        )}
      </Group>
      {open && (
        <Box id={builderId} mt="xs">
          <Suspense
            fallback={<Loader size="sm" role="status" aria-label="Loading the filter builder" m="sm" />}
          >
            <FilterBuilder
              key={JSON.stringify(where)}
              db={db}
              table={table}
              sort={sort}
              where={misfit ? null : where}
              focus={open.focus}
              focusAsked={open.asked}
              onApply={(next) => {
                onApply(next);
                close();
              }}
              onCancel={close}
            />
          </Suspense>
        </Box>
      )}
    </Box>
  );
}
