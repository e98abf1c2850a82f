import { Button, Group, Stack, Table, Text } from '@mantine/core';
import type { AuditRowChange } from '#common/contract/admin.ts';
import { failureMessage } from '#web/api/failure-message.ts';
import { useAuditRows } from '#web/api/admin/audit-rows.ts';
import { bulkKeyText, rowsText } from '#web/features/admin/bulk-entry-text.ts';
import { entryChanges, valueText, type ChangedField } from './entry-changes.ts';
import comparison from './change-comparison.module.css';
import classes from './bulk-row-list.module.css';

/** A value as the comparison shows it: null dimmed and in italics. */
function Value({ value }: { value: unknown }) {
  return value === null || value === undefined ? (
    <Text span size="sm" c="dimmed" fs="italic">
      null
    </Text>
  ) : (
    <Text span size="sm" className={comparison.value}>
      {valueText(value)}
    </Text>
  );
}

/** Fields as "name value" lines, one side of a row's change. */
function Fields({ fields, side }: { fields: ChangedField[]; side: 'before' | 'after' }) {
  return (
    <ul className={classes.fields}>
      {fields.map((field) => (
        <li key={field.name}>
          <Text span size="sm" fw={600} className={comparison.value}>
            {field.name}
          </Text>{' '}
          <Value value={field[side]} />
        </li>
      ))}
    </ul>
  );
}

function Absent({ text }: { text: string }) {
  return (
    <Text span size="sm" c="dimmed" fs="italic">
      {text}
    </Text>
  );
}

/** One row of the list: its key, and before → after of the fields the change changed (an update), or the whole row
 * on the side that has it (a delete, or the undo of one). Not highlighted as the comparison's changed fields are:
 * every row here changed. */
function RowChange({ row }: { row: AuditRowChange }) {
  const changes = entryChanges({ key: row.key, before: row.before, after: row.after });
  const both = row.before !== null && row.after !== null;
  const shown = both ? (changes?.fields.filter((f) => f.changed) ?? []) : (changes?.fields ?? []);
  return (
    <Table.Tr>
      <Table.Th scope="row" fw={500}>
        <span className={comparison.value}>{bulkKeyText(row.key)}</span>
      </Table.Th>
      {both && shown.length === 0 ? (
        <Table.Td colSpan={2}>
          <Absent text="no value changed" />
        </Table.Td>
      ) : (
        <>
          <Table.Td>
            {row.before === null ? (
              <Absent text="none (not there)" />
            ) : (
              <Fields fields={shown} side="before" />
            )}
          </Table.Td>
          <Table.Td>
            {row.after === null ? <Absent text="deleted" /> : <Fields fields={shown} side="after" />}
          </Table.Td>
        </>
      )}
    </Table.Tr>
  );
}

/**
 * The table "Row changes" of a bulk entry (or of its undo): each row's key and its values before and after, read from
 * the entry's row list a page at a time (useAuditRows), "Show more" for the next page.
 */
export function BulkRowList({ entryId }: { entryId: number }) {
  const rows = useAuditRows(entryId);
  if (rows.isPending)
    return (
      <Text size="sm" c="dimmed">
        Loading the rows…
      </Text>
    );
  if (rows.isError)
    return (
      <Text size="sm" c="red" role="alert">
        {failureMessage(rows.error, 'The rows of this change could not be loaded.')}
      </Text>
    );
  const pages = rows.data.pages;
  const list = pages.flatMap((page) => page.rows);
  const total = pages.at(-1)?.total ?? 0;
  if (total === 0)
    return (
      <Text size="sm" c="dimmed">
        No rows were changed.
      </Text>
    );
  return (
    <Stack gap="xs">
      <Table.ScrollContainer minWidth={320} type="native">
        <Table
          aria-label="Row changes"
          fz="sm"
          verticalSpacing={4}
          layout="fixed"
          withTableBorder
          striped
          captionSide="top"
        >
          <Table.Caption>
            {list.length === total
              ? `All ${rowsText(total)}, in key order`
              : `The first ${rowsText(list.length)} of ${rowsText(total)}, in key order`}
          </Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w="24%">Row</Table.Th>
              <Table.Th>Before</Table.Th>
              <Table.Th>After</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.map((row) => (
              <RowChange key={JSON.stringify(row.key)} row={row} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {rows.hasNextPage && (
        <Group>
          <Button
            size="xs"
            variant="default"
            loading={rows.isFetchingNextPage}
            onClick={() => void rows.fetchNextPage()}
          >
            Show more rows
          </Button>
        </Group>
      )}
    </Stack>
  );
}
