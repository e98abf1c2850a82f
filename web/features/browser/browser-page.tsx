import { useEffect, useRef, useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { Box, Button, Collapse, Group, Loader, Stack, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconChevronDown, IconDatabase, IconDatabaseOff, IconTable, IconTableOff } from '@tabler/icons-react';
import { MOBILE_BREAKPOINT_PX } from '#common/limits.ts';
import { browserMessages } from '#common/messages.ts';
import type { TableListItem } from '#common/contract/sql.ts';
import { parseBrowserAddress, type BrowserAddress } from './browser-address.ts';
import { pageCountOf } from './pager.tsx';
import { CardMessage, TableCard } from './table-card.tsx';
import { TableList, tableLabel } from './table-list.tsx';
import { useBrowserData } from './use-browser-data.ts';
import { useBrowserView } from './use-browser-view.ts';

const PHONE_QUERY = `(max-width: ${MOBILE_BREAKPOINT_PX - 0.02}px)`;
const listId = 'browser-tables';

/** /db/{db} and /db/{db}/{schema}/{table} (spec 000 §2): the table list and the selected table's card. The view
 * starts from the address; from then on the page keeps it and writes it back (browser-address.ts). */
export function BrowserPage() {
  const location = useLocation();
  const [initial] = useState(() => parseBrowserAddress(location.pathname, location.search));
  if (!initial) return <Navigate to="/" replace />;
  return <Browser initial={initial} />;
}

function Browser({ initial }: { initial: BrowserAddress }) {
  const [view, actions] = useBrowserView(initial);
  const data = useBrowserData(view);
  const isPhone = useMediaQuery(PHONE_QUERY, window.matchMedia(PHONE_QUERY).matches, {
    getInitialValueInEffect: false,
  });
  const [listOpen, setListOpen] = useState(view.table === null);

  // An address past the last page (rows deleted since it was shared) shows the last page instead.
  const { count, countIsExact, stale } = data.page;
  useEffect(() => {
    if (count === null || stale || !countIsExact) return;
    const last = pageCountOf(count, view.size);
    if (view.page > last) actions.goToPage(last);
  }, [count, countIsExact, stale, view.page, view.size, actions]);

  const listToggle = useRef<HTMLButtonElement>(null);
  const select = (table: TableListItem) => {
    actions.selectTable({ schema: table.schema, name: table.name });
    if (isPhone) {
      // The folded list hides the entry that had the focus: it goes back to the button that unfolds the list.
      setListOpen(false);
      listToggle.current?.focus();
    }
  };

  const heading = (
    <Group gap={8} wrap="nowrap">
      <IconDatabase size={20} aria-hidden="true" style={{ flexShrink: 0 }} />
      <Title order={1} fz="h4" style={{ overflowWrap: 'anywhere' }}>
        {view.db}
      </Title>
    </Group>
  );

  if (data.databaseFound === false) {
    return (
      <Box px={{ base: 'sm', sm: 'md', lg: 'xl' }} py="md">
        <Stack gap="md" maw={720} mx="auto">
          {heading}
          <CardMessage icon={<IconDatabaseOff size={40} />} title={browserMessages.noDatabase}>
            “{view.db}” is not a database your access includes. Choose one from the Database list
            {isPhone ? ' in the menu' : ' in the header'}.
          </CardMessage>
        </Stack>
      </Box>
    );
  }

  const list = (maxHeight?: string) => (
    <TableList
      db={view.db}
      tables={data.tables}
      failed={data.tablesFailed}
      selected={view.table}
      onSelect={select}
      maxHeight={maxHeight}
    />
  );
  const card = <Card view={view} data={data} actions={actions} isPhone={isPhone} />;

  // One tree at every width (only the side column changes), so the card and its state stay when the window
  // crosses the phone breakpoint.
  return (
    <Box
      px={isPhone ? 'xs' : { base: 'sm', md: 'md', lg: 'xl' }}
      py={isPhone ? 'sm' : 'md'}
      style={{
        display: 'flex',
        flexDirection: isPhone ? 'column' : 'row',
        alignItems: isPhone ? 'stretch' : 'flex-start',
        gap: isPhone ? 'var(--mantine-spacing-sm)' : 'var(--mantine-spacing-md)',
      }}
    >
      {isPhone ? (
        <Stack gap="sm">
          {heading}
          <Button
            ref={listToggle}
            variant="default"
            fullWidth
            justify="space-between"
            rightSection={
              <IconChevronDown
                size={16}
                aria-hidden="true"
                style={{ transform: listOpen ? 'rotate(180deg)' : undefined, transition: 'transform 150ms' }}
              />
            }
            leftSection={<IconTable size={16} aria-hidden="true" />}
            aria-expanded={listOpen}
            aria-controls={listId}
            onClick={() => setListOpen((open) => !open)}
          >
            {view.table ? tableLabel(view.table) : 'Tables'}
          </Button>
          <Collapse expanded={listOpen} id={listId}>
            {list('50vh')}
          </Collapse>
        </Stack>
      ) : (
        <Stack
          gap="sm"
          w={{ base: 210, md: 240, lg: 280 }}
          style={{
            flexShrink: 0,
            position: 'sticky',
            top: 'calc(var(--app-shell-header-offset, 4rem) + var(--mantine-spacing-md))',
          }}
        >
          {heading}
          {list('calc(100dvh - var(--app-shell-header-offset, 4rem) - 11rem)')}
        </Stack>
      )}
      <Box style={{ flex: 1, minWidth: 0 }}>{card}</Box>
    </Box>
  );
}

function Card({
  view,
  data,
  actions,
  isPhone,
}: {
  view: BrowserAddress;
  data: ReturnType<typeof useBrowserData>;
  actions: ReturnType<typeof useBrowserView>[1];
  isPhone: boolean;
}) {
  if (view.table === null) {
    return (
      <CardMessage icon={<IconTable size={40} />} title="Choose a table">
        {isPhone
          ? 'Open the list of tables above and pick one to see its rows, search them and edit them.'
          : 'Pick a table from the list to see its rows, search them and edit them. The search box above the list finds a table by its schema or name.'}
      </CardMessage>
    );
  }
  if (data.table === undefined) {
    if (data.tablesFailed) {
      return (
        <CardMessage icon={<IconTableOff size={40} />} title={tableLabel(view.table)}>
          {browserMessages.tableInfoFailed} Reload the page to try again.
        </CardMessage>
      );
    }
    return (
      <CardMessage
        icon={<Loader size="md" role="status" aria-label="Loading the table" />}
        title={tableLabel(view.table)}
      />
    );
  }
  if (data.table === null) {
    return (
      <CardMessage icon={<IconTableOff size={40} />} title="Table not found">
        This database has no table {tableLabel(view.table)} that your access includes. Choose one from the
        list.
      </CardMessage>
    );
  }
  return <TableCard db={view.db} table={data.table} view={view} actions={actions} page={data.page} />;
}
