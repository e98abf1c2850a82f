import {
  Suspense,
  useCallback,
  useMemo,
  useRef,
  useState,
  type FocusEvent,
  type PointerEvent,
  type ReactNode,
} from 'react';
import { ActionIcon, Alert, Box, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconInfoCircle, IconLayoutList, IconLink, IconPlus } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { ForeignKeyLabels } from '#common/contract/labels.ts';
import type { Row, TableListItem } from '#common/contract/sql.ts';
import { rowKeyOf } from '#web/api/sql/row-by-key.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import { DataGrid } from '#web/features/browser/grid/data-grid.tsx';
import { cellLinksOf } from '#web/features/browser/grid/foreign-key-cell.tsx';
import type { EditorTarget } from '#web/features/browser/editor/row-editor.tsx';
import { ExportButton } from '#web/features/browser/export/export-button.tsx';
import {
  LazyAddressRow,
  LazyBulkBar,
  LazyInfoTooltip,
  LazyRowEditor,
  LazyTableInfoModal,
  ModalLoading,
  prefetchEditor,
  prefetchInfo,
} from '#web/features/browser/lazy-pieces.tsx';
import type { BrowserAddress } from './browser-address.ts';
import { useRowSelection } from './bulk/row-selection.ts';
import { FilterEntry } from './filter/filter-entry.tsx';
import { ImportEntry } from './import/import-entry.tsx';
import { useBulkJob } from './bulk/bulk-job.ts';
import { ColumnsEntry } from './columns/columns-entry.tsx';
import { tableInLayoutOrder } from './grid/column-layout.ts';
import { Pager } from './pager.tsx';
import { SearchForm } from './search-form.tsx';
import { tableLabel } from './table-list.tsx';
import type { BrowserViewActions } from './use-browser-view.ts';
import { stateOf } from './views/view-state.ts';
import { ViewsEntry } from './views/views-entry.tsx';
import classes from './table-card.module.css';

/** The page of rows the card shows, as the page-level query has it. */
export interface CardPage {
  rows: Row[];
  /** null until the first answer for this table. */
  count: number | null;
  countIsExact: boolean;
  /** Nothing to show yet. */
  loading: boolean;
  /** The previous page stays shown while the next one loads. */
  stale: boolean;
  /** The labels of the rows its foreign keys point at (decision 0067); empty when it has none. */
  labels: ForeignKeyLabels[];
}

export interface TableCardProps {
  db: string;
  table: TableListItem;
  view: BrowserAddress;
  actions: BrowserViewActions;
  page: CardPage;
}

/**
 * The selected table's card (spec 000 §2): its title, the information icon, Add (only with CanInsert), the search
 * form with Clear, Export and Search, the filter (issue 35: its button, builder and chips), the Columns chooser
 * (decision 0063), the grid and the pager; a
 * row click opens the editor, and closing the editor after a change reads the page again.
 */
export function TableCard({ db, table, view, actions, page }: TableCardProps) {
  const queryClient = useQueryClient();
  const [infoOpened, setInfoOpened] = useState(false);
  const [target, setTarget] = useState<EditorTarget | null>(null);
  // The editor and the information modal mount (and so load their code) on first use, then stay for their fades.
  const [editorUsed, setEditorUsed] = useState(false);
  const [infoUsed, setInfoUsed] = useState(false);
  // The information button's tooltip loads when the pointer or the focus first reaches the button.
  const infoButton = useRef<HTMLButtonElement>(null);
  const [tooltipWanted, setTooltipWanted] = useState(false);
  const infoIntent = () => {
    setTooltipWanted(true);
    prefetchInfo();
  };
  // The editor mounts already open, so Mantine cannot note where focus was: the card does, and gives it back on close
  // (the grid cell, or Add), for keyboard users.
  const opener = useRef<HTMLElement | null>(null);
  const openEditor = (next: EditorTarget) => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setEditorUsed(true);
    setTarget(next);
  };
  const openInfo = () => {
    setInfoUsed(true);
    setInfoOpened(true);
  };
  // A pointer over a row or the keyboard on one is likely to open it: the editor's code starts loading.
  const rowIntent = (event: PointerEvent | FocusEvent) => {
    if (event.target instanceof Element && event.target.closest('tbody tr')) prefetchEditor();
  };
  const label = tableLabel(table);
  // The rows selected for a bulk change (issue 38): a selection belongs to this table, search and filter only.
  const bulk = useRowSelection(table, page.rows, JSON.stringify([table.id, view.filter, view.where]));
  const [bulkUsed, setBulkUsed] = useState(false);
  // A job started elsewhere (an import's undo) shows its progress in the bar's panel too.
  const bulkJob = useBulkJob();
  if (!bulkUsed && (bulk.selection.all || bulk.selection.keys.size > 0 || bulkJob)) setBulkUsed(true);
  // The editor lists the columns in the grid's order when a layout is set (the rest after, in the table's order).
  const editorTable = useMemo(() => tableInLayoutOrder(table, view.columns), [table, view.columns]);

  // The row the address names (`row=`, decision 0067), read once when the card opens, then opened in the editor.
  const navigate = useNavigate();
  const [addressRow, setAddressRow] = useState(view.row ?? null);
  const links = useMemo(
    () => cellLinksOf(db, page.labels, (href) => void navigate(href)),
    [db, page.labels, navigate],
  );
  const openAddressRow = useCallback((row: Row) => {
    setAddressRow(null);
    setEditorUsed(true);
    setTarget({ mode: 'edit', row });
  }, []);
  const { refuseRow } = actions;
  const refuseAddressRow = useCallback(
    (sentence: string) => {
      setAddressRow(null);
      refuseRow(sentence);
    },
    [refuseRow],
  );

  const closeEditor = (changed: boolean) => {
    setTarget(null);
    actions.openRow(null);
    const returnTo = opener.current;
    if (returnTo) requestAnimationFrame(() => returnTo.isConnected && returnTo.focus());
    if (changed) {
      void queryClient.invalidateQueries({
        queryKey: queryKeys.sql.table({ db, schema: table.schema, table: table.name }),
      });
    }
  };

  return (
    <CardFrame>
      {/* The buttons go under the title when both do not fit (a phone, a long view name). */}
      <Group justify="space-between" wrap="wrap" gap="sm" align="flex-start">
        <Group gap={6} wrap="nowrap" style={{ minWidth: 0, flex: '1 1 10rem' }}>
          <Title order={2} fz={{ base: 'h4', sm: 'h3' }} style={{ overflowWrap: 'anywhere' }}>
            {label}
          </Title>
          <ActionIcon
            ref={infoButton}
            variant="subtle"
            color="gray"
            aria-label="Table information"
            onPointerEnter={infoIntent}
            onFocus={infoIntent}
            onClick={openInfo}
          >
            <IconInfoCircle size={20} aria-hidden="true" />
          </ActionIcon>
          {tooltipWanted && (
            <Suspense fallback={null}>
              <LazyInfoTooltip target={infoButton} label="Table information" withArrow openDelay={300} />
            </Suspense>
          )}
        </Group>
        <Group gap="xs" wrap="wrap" justify="flex-end" style={{ flexShrink: 0 }}>
          <ViewsEntry
            key={`views ${table.id}`}
            table={{ db, schema: table.schema, table: table.name }}
            view={view.savedView}
            state={stateOf(view)}
            onOpen={actions.openView}
            onChanged={actions.viewSaved}
            pending={view.viewPending !== null}
            onLoaded={actions.viewLoaded}
          />
          {table.rights.canInsert && (
            <Button
              leftSection={<IconPlus size={16} aria-hidden="true" />}
              onPointerEnter={prefetchEditor}
              onFocus={prefetchEditor}
              onClick={() => openEditor({ mode: 'add' })}
            >
              Add
            </Button>
          )}
          <ImportEntry db={db} table={table} />
        </Group>
      </Group>

      {view.viewNotice && (
        <Alert
          color="yellow"
          variant="light"
          icon={<IconLayoutList size={18} aria-hidden="true" />}
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={actions.dismissViewNotice}
          p="xs"
        >
          {view.viewNotice}
        </Alert>
      )}

      {view.rowProblem && (
        <Alert
          color="yellow"
          variant="light"
          icon={<IconLink size={18} aria-hidden="true" />}
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => actions.openRow(null)}
          p="xs"
        >
          {view.rowProblem}
        </Alert>
      )}
      {addressRow && (
        <Suspense fallback={null}>
          <LazyAddressRow
            key={table.id}
            tableRef={{ db, schema: table.schema, table: table.name }}
            rowKey={addressRow}
            onRow={openAddressRow}
            onProblem={refuseAddressRow}
          />
        </Suspense>
      )}

      <SearchForm
        key={table.id}
        table={table}
        filter={view.filter}
        onSearch={actions.search}
        actions={
          <ExportButton db={db} table={table} filter={view.filter} where={view.where} sort={view.sort} />
        }
      />

      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Box style={{ flex: 1, minWidth: 0 }}>
          <FilterEntry
            key={`filter ${table.id}`}
            db={db}
            table={table}
            sort={view.sort}
            where={view.where}
            whereProblem={view.whereProblem}
            onApply={actions.filterBy}
            onRefuse={actions.refuseFilter}
          />
        </Box>
        <ColumnsEntry
          key={`columns ${table.id}`}
          table={table}
          layout={view.columns}
          onChange={actions.setColumns}
        />
      </Group>

      {bulkUsed && (
        <Suspense fallback={null}>
          <LazyBulkBar db={db} table={table} bulk={bulk} view={view} page={page} />
        </Suspense>
      )}

      {/* On narrow screens the grid scrolls sideways here, inside the card, not the page. */}
      <Box style={{ overflowX: 'auto', minWidth: 0 }} onPointerOver={rowIntent} onFocus={rowIntent}>
        <DataGrid
          table={table}
          rows={page.rows}
          sort={view.sort}
          onSortChange={actions.sortBy}
          onOpenRow={(row) => {
            openEditor({ mode: 'edit', row });
            actions.openRow(rowKeyOf(table, row));
          }}
          links={links}
          loading={page.loading}
          stale={page.stale}
          filtered={Object.keys(view.filter).length > 0 || view.where !== null}
          layout={view.columns}
          onLayoutChange={actions.setColumns}
          selection={bulk.grid}
        />
      </Box>

      <Pager
        page={view.page}
        size={view.size}
        count={page.count}
        countIsExact={page.countIsExact}
        onPageChange={actions.goToPage}
        onSizeChange={actions.setSize}
      />

      {infoUsed && (
        <Suspense fallback={infoOpened && <ModalLoading label="Loading the table information" />}>
          <LazyTableInfoModal
            db={db}
            table={table}
            opened={infoOpened}
            onClose={() => setInfoOpened(false)}
          />
        </Suspense>
      )}
      {editorUsed && (
        <Suspense fallback={target && <ModalLoading label="Loading the row editor" />}>
          <LazyRowEditor db={db} table={editorTable} target={target} onClose={closeEditor} />
        </Suspense>
      )}
    </CardFrame>
  );
}

/** The card around the browser's right side: the table, or what stands in for it. */
export function CardFrame({ children }: { children: ReactNode }) {
  return (
    <Stack gap="md" className={classes.frame}>
      {children}
    </Stack>
  );
}

/** The card with a heading and a sentence, for no table chosen, a table not found, or a table loading. */
export function CardMessage({
  icon,
  title,
  children,
}: {
  icon: ReactNode;
  title: string;
  children?: ReactNode;
}) {
  return (
    <CardFrame>
      <Stack align="center" gap="xs" py="xl" ta="center">
        <Box c="dimmed">{icon}</Box>
        <Title order={2} fz="h3">
          {title}
        </Title>
        {children && (
          <Text c="dimmed" maw="32rem">
            {children}
          </Text>
        )}
      </Stack>
    </CardFrame>
  );
}
