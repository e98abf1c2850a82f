import { useState, type ReactNode } from 'react';
import { Alert, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { cutLengthsOf, type Row, type TableListItem } from '#common/contract/sql.ts';
import { MODAL_FADE_MS } from '#common/limits.ts';
import { failureMessage } from '#web/api/failure-message.ts';
import { rowKeyOf, useRowByKey } from '#web/api/sql/row-by-key.ts';
import type { TableRef } from '#web/api/sql/paths.ts';
import { editorMessages as em } from './editor-messages.ts';

/** The gate's own sentences (decision 0066). */
export const wholeRowMessages = {
  reading: 'Reading the whole row…',
  noKey:
    'This row holds values cut for the page, and the table has no key to read it whole by, so it cannot be opened here.',
  gone: 'This row is no longer in the table: it may have been deleted. Reload the page.',
  failed: 'The whole row could not be read, so it was not opened. Try again.',
  close: 'Close',
} as const;

/**
 * The row editor's gate for a row the page holds cut (docs/decisions/0066-cut-values.md): the form must never start
 * from cut values (a save would write them back, a copy would copy them), so such a row is read whole by its key
 * first, with a loading state, and the form opens on the row as read (its own version, so the lost-update rule
 * holds). A row the page holds whole opens at once; one that cannot be read whole does not open, and says why.
 */
export function WholeRowGate({
  tableRef,
  table,
  row,
  opened,
  onClose,
  children,
}: {
  tableRef: TableRef;
  table: TableListItem;
  /** The row as the page answered it; null for a new row. */
  row: Row | null;
  opened: boolean;
  onClose: () => void;
  /** The editor, given the whole row. */
  children: (row: Row | null) => ReactNode;
}) {
  const cut = row !== null && cutLengthsOf(row) !== undefined;
  const key = cut ? rowKeyOf(table, row) : null;
  const whole = useRowByKey(tableRef, key);
  // Kept once read: a later refetch of the same row (a window focus) must not take the form away from under edits.
  const [read, setRead] = useState<Row | null>(null);
  if (read === null && key !== null && whole.data && !whole.isFetching) setRead(whole.data);
  if (!cut) return children(row);
  if (read) return children(read);

  const problem =
    key === null
      ? wholeRowMessages.noKey
      : whole.isError
        ? failureMessage(whole.error, wholeRowMessages.failed)
        : whole.data === null && !whole.isFetching
          ? wholeRowMessages.gone
          : null;
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={em.editTitle}
      centered
      transitionProps={{ transition: 'fade', duration: MODAL_FADE_MS }}
    >
      {problem ? (
        <Stack gap="md">
          <Alert color="yellow" variant="light">
            <Text size="sm">{problem}</Text>
          </Alert>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {wholeRowMessages.close}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Group gap="sm" role="status">
          <Loader size="sm" />
          <Text size="sm">{wholeRowMessages.reading}</Text>
        </Group>
      )}
    </Modal>
  );
}
