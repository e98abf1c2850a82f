import { lazy, Suspense, useState } from 'react';
import { Button, Group, Paper, Text } from '@mantine/core';
import { IconEdit, IconTrash, IconX } from '@tabler/icons-react';
import type { BulkAction } from '#common/contract/bulk.ts';
import type { Filter } from '#common/contract/filter.ts';
import type { TableListItem } from '#common/contract/sql.ts';
import { ModalLoading } from '#web/features/browser/lazy-pieces.tsx';
import { useBulkJob } from './bulk-job.ts';
import { BULK_KEYS_MOST, countText } from './bulk-text.ts';
import type { useRowSelection } from './row-selection.ts';

/*
 * The bar is loaded when the first row is selected, so it is kept small: the dialog (with the row editor's fields,
 * the preview and the run calls) loads on the first Set value… or Delete, the job's panel (its status, cancel and
 * undo calls) once a job runs.
 */
const LazyBulkDialog = lazy(() => import('./bulk-dialog.tsx'));
const LazyBulkJobPanel = lazy(() => import('./bulk-progress.tsx').then((m) => ({ default: m.BulkJobPanel })));

export interface BulkBarProps {
  db: string;
  table: TableListItem;
  /** The card's selection (row-selection.ts). */
  bulk: Pick<ReturnType<typeof useRowSelection>, 'selection' | 'selectAll' | 'clear'>;
  /** The view: its filter document (`where`) and search terms (`filter`). Search terms narrow the grid too, and the
   * bulk calls take a filter document only, so "Select all" waits for no search. */
  view: { where: Filter | null; filter: Record<string, unknown> };
  /** The rows the filter keeps, as the pager has them (null: not known yet). */
  page: { count: number | null; countIsExact: boolean };
}

/**
 * The bulk bar over the grid while rows are selected (issue 38): how many, "Select all N rows of this filter", Set
 * value… (with CanUpdate), Delete (with CanDelete) and Clear; and the running job's panel, which stays when the
 * selection goes.
 */
export function BulkBar(props: BulkBarProps) {
  const { db, table, bulk, view } = props;
  const { selection, selectAll: onSelectAll, clear: onClear } = bulk;
  const { where } = view;
  const { count, countIsExact } = props.page;
  const searched = Object.keys(view.filter).length > 0;
  const [action, setAction] = useState<BulkAction | null>(null);
  const job = useBulkJob();
  const chosen = selection.keys.size;
  const selected = selection.all || chosen > 0;
  const tooMany = !selection.all && chosen > BULK_KEYS_MOST;
  const whole = count === null ? 'all rows' : `all ${countText(count)}${countIsExact ? '' : '+'} rows`;
  // As the row editor's rowsCanChange: rows are changed by their identity or guid.
  const canSet = table.rights.canUpdate && (table.hasIdentity || table.hasGuid);

  return (
    <>
      {selected && (
        <Paper
          withBorder
          radius="sm"
          px="sm"
          py={6}
          bg="var(--mantine-primary-color-light)"
          aria-label="Selected rows"
          component="section"
        >
          <Group gap="xs" justify="space-between" wrap="wrap">
            <Group gap="xs" wrap="wrap">
              <Text size="sm" fw={600} role="status">
                {selection.all
                  ? `${whole[0]?.toUpperCase()}${whole.slice(1)} of this filter selected`
                  : `${countText(chosen)} selected`}
              </Text>
              {!selection.all && !searched && count !== null && count > chosen && (
                <Button size="compact-sm" variant="subtle" onClick={onSelectAll}>
                  Select {whole} of this filter
                </Button>
              )}
            </Group>
            <Group gap={6} wrap="wrap">
              {canSet && (
                <Button
                  size="compact-sm"
                  variant="default"
                  leftSection={<IconEdit size={14} aria-hidden="true" />}
                  disabled={tooMany}
                  onClick={() => setAction('update')}
                >
                  Set value…
                </Button>
              )}
              {table.rights.canDelete && (
                <Button
                  size="compact-sm"
                  variant="default"
                  color="red"
                  leftSection={<IconTrash size={14} aria-hidden="true" />}
                  disabled={tooMany}
                  onClick={() => setAction('delete')}
                >
                  Delete
                </Button>
              )}
              <Button
                size="compact-sm"
                variant="subtle"
                color="gray"
                leftSection={<IconX size={14} aria-hidden="true" />}
                onClick={onClear}
              >
                Clear
              </Button>
            </Group>
          </Group>
          {tooMany && (
            <Text size="xs" mt={4}>
              A hand-made selection takes at most {countText(BULK_KEYS_MOST)} rows: choose more with a filter
              and Select all.
            </Text>
          )}
        </Paper>
      )}
      {action && selected && (
        <Suspense fallback={<ModalLoading label="Loading the bulk change" />}>
          <LazyBulkDialog
            db={db}
            table={table}
            action={action}
            selection={selection}
            where={where}
            onClose={() => setAction(null)}
            onStarted={onClear}
          />
        </Suspense>
      )}
      {job && (
        <Suspense fallback={null}>
          <LazyBulkJobPanel />
        </Suspense>
      )}
    </>
  );
}
