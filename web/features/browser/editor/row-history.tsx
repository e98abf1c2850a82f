import { useId, useState } from 'react';
import { Alert, Badge, Button, Group, Loader, Modal, Paper, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { CellValue, Row, RowHistoryEntry, TableListItem } from '#common/contract/sql.ts';
import { MODAL_FADE_MS } from '#common/limits.ts';
import { failureMessage } from '#web/api/failure-message.ts';
import { useRowHistory } from '#web/api/sql/row-history.ts';
import { useUndoRowChange } from '#web/api/sql/row-undo.ts';
import { usePopup } from '#web/ui/popups.ts';

export interface RowHistoryProps {
  db: string;
  table: TableListItem;
  /** The row as the editor last loaded or saved it (its key columns identify it). */
  row: Row;
  /** After an undo: the row as it is now (null when the undo deleted it). */
  onUndone: (row: Row | null) => void;
}

/*
 * The History tab's own words (beyond the spec: issue 13, docs/decisions/0026-row-history-and-last-page.md). The
 * server's messages (what an undo did, why it was refused) are shown as they come.
 */
const hm = {
  loading: 'Loading the history…',
  failed: 'Failed to get the row’s history.',
  empty: 'No changes of this row are recorded yet.',
  list: 'Changes',
  unknownUser: 'a deleted account',
  undo: 'Undo',
  restore: 'Restore',
  cancel: 'Cancel',
  undone: 'Undone',
  pending: 'Not confirmed yet',
  uncertain: 'Uncertain',
  undoFailed: 'Failed to undo the change.',
  undoDone: 'The change was undone.',
  column: 'Column',
  oldValue: 'Old value',
  newValue: 'New value',
  value: 'Value',
  undoTitle: 'Undo Change Confirmation',
  restoreTitle: 'Restore Row Confirmation',
  undoUpdate: (columns: string[]) =>
    `Put back the earlier value${columns.length === 1 ? '' : 's'} of ${columns.join(', ')}?`,
  undoInsert: 'Delete the row this change added?',
  restoreDelete: 'Put the deleted row back?',
} as const;

/** What an entry did, as its heading says it. */
function actionLabel(entry: RowHistoryEntry): string {
  if (entry.action === 'data.undo') {
    if (entry.change === 'update') return 'Undo: earlier values put back';
    if (entry.change === 'insert') return 'Undo: deleted row restored';
    return 'Undo: added row deleted';
  }
  if (entry.change === 'insert') return 'Added';
  if (entry.change === 'delete') return 'Deleted';
  return `Changed ${entry.changedColumns.length === 1 ? '1 column' : `${entry.changedColumns.length} columns`}`;
}

/** Whether the entry's undo puts a deleted row back (its button says Restore). */
const restores = (entry: RowHistoryEntry) => entry.change === 'delete' && entry.action !== 'data.undo';

const shortDateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' });

function when(at: string): string {
  const instant = new Date(at);
  return Number.isNaN(instant.getTime()) ? at : shortDateTime.format(instant);
}

/** One value as the history shows it: null as the text "null", the rest as text. */
function Value({ value }: { value: CellValue | undefined }) {
  if (value === null || value === undefined)
    return (
      <Text span size="sm" c="dimmed" fs="italic">
        null
      </Text>
    );
  return (
    <Text span size="sm" style={{ wordBreak: 'break-word' }} lineClamp={4}>
      {String(value)}
    </Text>
  );
}

/** The values of a change: for an update old → new of each changed column, for an insert or delete the row. */
function ChangeValues({ entry }: { entry: RowHistoryEntry }) {
  const columns = entry.changedColumns;
  if (columns.length === 0) return null;
  const both = entry.change === 'update';
  const values = entry.change === 'insert' ? entry.after : entry.before;
  return (
    <Table.ScrollContainer minWidth={both ? 300 : 220} type="native">
      <Table withTableBorder={false} verticalSpacing={4} fz="sm" layout="fixed">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={both ? '28%' : '35%'}>{hm.column}</Table.Th>
            {both ? (
              <>
                <Table.Th>{hm.oldValue}</Table.Th>
                <Table.Th>{hm.newValue}</Table.Th>
              </>
            ) : (
              <Table.Th>{hm.value}</Table.Th>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {columns.map((name) => (
            <Table.Tr key={name}>
              <Table.Th scope="row" fw={500}>
                {name}
              </Table.Th>
              {both ? (
                <>
                  <Table.Td>
                    <Value value={entry.before?.[name]} />
                  </Table.Td>
                  <Table.Td>
                    <Value value={entry.after?.[name]} />
                  </Table.Td>
                </>
              ) : (
                <Table.Td>
                  <Value value={values?.[name]} />
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function HistoryItem({ entry, onAsk }: { entry: RowHistoryEntry; onAsk: (entry: RowHistoryEntry) => void }) {
  const headingId = useId();
  return (
    <Paper component="li" withBorder radius="md" p="sm" aria-labelledby={headingId}>
      <Group justify="space-between" align="flex-start" gap="xs" mb={entry.changedColumns.length ? 'xs' : 0}>
        <Stack gap={0} miw={0}>
          <Text fw={600} size="sm" id={headingId}>
            {actionLabel(entry)}
          </Text>
          <Text size="xs" c="dimmed">
            {entry.username ?? hm.unknownUser} · <time dateTime={entry.at}>{when(entry.at)}</time>
          </Text>
        </Stack>
        <Group gap="xs">
          {entry.undoneBy !== null && (
            <Badge variant="light" color="gray">
              {hm.undone}
            </Badge>
          )}
          {entry.state === 'pending' && (
            <Badge variant="light" color="yellow">
              {hm.pending}
            </Badge>
          )}
          {entry.state === 'uncertain' && (
            <Badge variant="light" color="orange">
              {hm.uncertain}
            </Badge>
          )}
          {entry.canUndo && (
            <Button size="xs" variant="light" onClick={() => onAsk(entry)}>
              {restores(entry) ? hm.restore : hm.undo}
            </Button>
          )}
        </Group>
      </Group>
      <ChangeValues entry={entry} />
    </Paper>
  );
}

/** The editor's History tab: the row's audit entries with Undo where the person may undo. */
export function RowHistory({ db, table, row, onUndone }: RowHistoryProps) {
  const ref = { db, schema: table.schema, table: table.name };
  const history = useRowHistory(ref, table, row);
  const undo = useUndoRowChange(ref);
  const [asking, setAsking] = useState<RowHistoryEntry | null>(null);
  const close = () => {
    if (!undo.isPending) setAsking(null);
  };
  usePopup(asking !== null, close);

  const confirm = (entry: RowHistoryEntry) =>
    undo.mutate(entry.id, {
      onSuccess: (answer) => {
        notifications.show({ color: 'green', message: answer.message ?? hm.undoDone });
        setAsking(null);
        onUndone(answer.data.row);
      },
      onError: (error) => {
        notifications.show({ color: 'red', message: failureMessage(error, hm.undoFailed) });
        setAsking(null);
      },
    });

  let body;
  if (history.isPending) {
    body = (
      <Group gap="sm" role="status">
        <Loader size="sm" />
        <Text size="sm">{hm.loading}</Text>
      </Group>
    );
  } else if (history.isError) {
    body = (
      <Alert color="red" role="alert">
        {failureMessage(history.error, hm.failed)}
      </Alert>
    );
  } else if (history.data.length === 0) {
    body = (
      <Text size="sm" c="dimmed">
        {hm.empty}
      </Text>
    );
  } else {
    body = (
      <Stack component="ol" gap="sm" aria-label={hm.list} m={0} p={0} style={{ listStyle: 'none' }}>
        {history.data.map((entry) => (
          <HistoryItem key={entry.id} entry={entry} onAsk={setAsking} />
        ))}
      </Stack>
    );
  }

  const restoring = asking !== null && restores(asking);
  return (
    <>
      {body}
      <Modal.Root
        opened={asking !== null}
        onClose={close}
        centered
        size="sm"
        zIndex={400}
        transitionProps={{ transition: 'fade', duration: MODAL_FADE_MS }}
      >
        <Modal.Overlay />
        <Modal.Content>
          <Modal.Header>
            <Modal.Title fw={700}>{restoring ? hm.restoreTitle : hm.undoTitle}</Modal.Title>
            <Modal.CloseButton aria-label="Close" />
          </Modal.Header>
          <Modal.Body>
            <Text size="sm">
              {asking === null
                ? null
                : restoring
                  ? hm.restoreDelete
                  : asking.change === 'insert'
                    ? hm.undoInsert
                    : hm.undoUpdate(asking.changedColumns)}
            </Text>
            <Group justify="flex-end" gap="sm" mt="lg">
              <Button variant="default" onClick={close} disabled={undo.isPending}>
                {hm.cancel}
              </Button>
              <Button
                loading={undo.isPending}
                onClick={() => {
                  if (asking) confirm(asking);
                }}
              >
                {restoring ? hm.restore : hm.undo}
              </Button>
            </Group>
          </Modal.Body>
        </Modal.Content>
      </Modal.Root>
    </>
  );
}
