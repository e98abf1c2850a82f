import { useState, type ReactNode } from 'react';
import {
  Alert,
  Badge,
  Button,
  Group,
  List,
  Modal,
  MultiSelect,
  ScrollArea,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { BulkAction, BulkPreview, BulkPreviewBody } from '#common/contract/bulk.ts';
import { keepsEveryRow, type Filter } from '#common/contract/filter.ts';
import type { CellValue, Row, TableListItem } from '#common/contract/sql.ts';
import { failureMessage } from '#web/api/failure-message.ts';
import { ApiFailure } from '#web/api/query.ts';
import { useBulkPreview } from '#web/api/sql/bulk-preview.ts';
import { useBulkRun } from '#web/api/sql/bulk-run.ts';
import { RowFieldInput } from '#web/features/browser/editor/fields/row-field.tsx';
import { fieldError, rowFields, type RowField } from '#web/features/browser/editor/row-fields.ts';
import { setBulkJob, useBulkJob } from './bulk-job.ts';
import { countText, onDeleteWords, rowsText, TYPED_COUNT_FROM, typedCountMatches } from './bulk-text.ts';
import { bulkKeyColumns, type RowSelection } from './row-selection.ts';

/** The body naming the selected rows: every row of the filter (allRows when it has no conditions), or the keys
 * chosen by hand, within the filter. */
export function bulkRows(
  table: TableListItem,
  selection: RowSelection,
  where: Filter | null,
): Omit<BulkPreviewBody, 'action' | 'set'> {
  const filter = where ?? undefined;
  const names = bulkKeyColumns(table);
  if (!selection.all) {
    const keys = [...selection.keys.values()].map((row) =>
      Object.fromEntries(names.map((name) => [name, row[name] ?? null])),
    );
    return { where: filter, keys };
  }
  return !where || keepsEveryRow(where) ? { where: filter, allRows: true } : { where: filter };
}

export const bulkDialogMessages = {
  previewFailed: 'Failed to preview the change.',
  runFailed: 'Failed to start the change.',
  nullHint: 'An empty field sets NULL (where the column allows it).',
  noSettable:
    'No column of this table can be set in bulk: keys, identity, guid, computed, hidden and foreign-key columns cannot.',
  typeCount: (shown: string) => `Type the number of rows (${shown}) to confirm`,
  oneAtATime: 'A bulk change is running: wait for it to end.',
} as const;

/**
 * The columns a bulk update can set: the row editor's fields of an existing row that a person types into (not
 * identity, guid, computed, hidden or foreign-key columns), without the key's columns: the server's checkBulkSet
 * (server/engines/bulk-writes.ts), which remains the judge. None when the table has no identity or guid.
 */
export function settableFields(table: TableListItem): RowField[] {
  const key = new Set([...bulkKeyColumns(table), ...table.primaryKey]);
  return rowFields(table, 'edit')
    .filter((field) => !field.readOnly && !key.has(field.column.name) && !field.column.isForeignKey)
    .sort((a, b) => a.column.id - b.column.id);
}

export interface BulkDialogProps {
  db: string;
  table: TableListItem;
  action: BulkAction;
  /** The rows: every row of the filter, or the keys chosen by hand. */
  selection: RowSelection;
  /** The filter document the grid shows (null: none). */
  where: Filter | null;
  onClose: () => void;
  /** The job started: the selection is cleared. */
  onStarted: () => void;
}

type Step = { name: 'form' } | { name: 'preview'; preview: BulkPreview };

/** "Set value…" and "Delete": the values to set, the preview (count, sample, references), the typed count and Run. */
export function BulkDialog({ db, table, action, selection, where, onClose, onStarted }: BulkDialogProps) {
  const [body] = useState(() => bulkRows(table, selection, where));
  const ref = { db, schema: table.schema, table: table.name };
  const fields = settableFields(table);
  const [chosen, setChosen] = useState<string[]>([]);
  const [values, setValues] = useState<Row>({});
  const [touched, setTouched] = useState(false);
  const [step, setStep] = useState<Step>({ name: 'form' });
  const [problem, setProblem] = useState<ReactNode>(null);
  const [typed, setTyped] = useState('');
  const preview = useBulkPreview();
  const run = useBulkRun();
  const running = useBulkJob() !== null;

  const chosenFields = fields.filter((field) => chosen.includes(field.column.name));
  const errors = chosenFields.map((field) => fieldError(field, values[field.column.name] ?? null));
  const set =
    action === 'update' ? Object.fromEntries(chosen.map((name) => [name, values[name] ?? null])) : undefined;
  const request = { ...ref, body: { ...body, action, set } };

  const look = () => {
    setProblem(null);
    setTyped('');
    preview.mutateAsync(request).then(
      (answer) => setStep({ name: 'preview', preview: answer.data }),
      (error: unknown) => setProblem(failureMessage(error, bulkDialogMessages.previewFailed)),
    );
  };
  const start = (count: number) => {
    setProblem(null);
    run.mutateAsync({ ...request, expectedCount: count }).then(
      (answer) => {
        setBulkJob({
          kind: 'change',
          job: { ...ref, id: answer.data.id },
          title: `${action === 'update' ? 'Setting values on' : 'Deleting rows of'} ${table.schema}.${table.name}`,
          verb: action === 'update' ? 'Values set on' : 'Deleted',
          startedAt: Date.now(),
          status: null,
          cancelling: false,
        });
        onStarted();
        onClose();
      },
      (error: unknown) => {
        const message = failureMessage(error, bulkDialogMessages.runFailed);
        const now = error instanceof ApiFailure && error.status === 409 ? countOf(error.details) : null;
        setProblem(
          now ? (
            <Stack gap={6}>
              <Text size="sm">{message}</Text>
              <Text size="sm" fw={600}>
                Now: {rowsText(now.count, now.capped)}.
              </Text>
              <Group>
                <Button size="xs" variant="light" onClick={look} loading={preview.isPending}>
                  Preview again
                </Button>
              </Group>
            </Stack>
          ) : (
            message
          ),
        );
      },
    );
  };

  const title =
    action === 'update'
      ? `Set values on ${table.schema}.${table.name}`
      : `Delete rows of ${table.schema}.${table.name}`;
  const problemAlert = problem && (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle size={18} aria-hidden="true" />}
      role="alert"
      p="xs"
    >
      {problem}
    </Alert>
  );

  let content: ReactNode;
  if (step.name === 'form' && action === 'update') {
    content = (
      <Stack gap="sm">
        {fields.length === 0 ? (
          <Text size="sm">{bulkDialogMessages.noSettable}</Text>
        ) : (
          <MultiSelect
            label="Columns to set"
            placeholder={chosen.length ? undefined : 'Choose one or more columns'}
            data={fields.map((field) => field.column.name)}
            value={chosen}
            onChange={setChosen}
            searchable
            comboboxProps={{ withinPortal: true }}
          />
        )}
        {chosenFields.length > 0 && (
          <>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              {chosenFields.map((field, index) => (
                <RowFieldInput
                  key={field.column.name}
                  tableRef={ref}
                  field={field}
                  value={values[field.column.name] ?? null}
                  error={touched ? errors[index] : undefined}
                  onChange={(value: CellValue) =>
                    setValues((all) => ({ ...all, [field.column.name]: value }))
                  }
                  onBlur={() => setTouched(true)}
                />
              ))}
            </SimpleGrid>
            <Text size="xs" c="dimmed">
              {bulkDialogMessages.nullHint}
            </Text>
          </>
        )}
        {problemAlert}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            disabled={chosen.length === 0}
            loading={preview.isPending}
            onClick={() => {
              setTouched(true);
              if (errors.every((error) => error === undefined)) look();
            }}
          >
            Preview
          </Button>
        </Group>
      </Stack>
    );
  } else if (step.name === 'form') {
    // A delete has nothing to fill in: straight to its preview.
    content = (
      <Stack gap="sm">
        <Text size="sm">Preview the rows this delete takes before running it.</Text>
        {problemAlert}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" loading={preview.isPending} onClick={look}>
            Preview
          </Button>
        </Group>
      </Stack>
    );
  } else {
    const { count, capped } = step.preview;
    const shown = countText(count, capped);
    const mustType = count > TYPED_COUNT_FROM;
    const confirmed = !mustType || typedCountMatches(typed, count);
    content = (
      <Stack gap="sm">
        <Text fw={600}>
          {action === 'update' ? 'This sets ' : 'This deletes '}
          {rowsText(count, capped)}
          {action === 'update' ? `: ${chosen.join(', ')}.` : '.'}
        </Text>
        {count > 0 && <SampleTable table={table} preview={step.preview} set={chosen} />}
        {action === 'delete' && step.preview.references && step.preview.references.length > 0 && (
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              Tables that point at these rows
            </Text>
            <List size="sm" spacing={4}>
              {step.preview.references.map((reference) => (
                <List.Item key={`${reference.schema}.${reference.table}.${reference.columns.join(',')}`}>
                  <Text span size="sm" fw={600}>
                    {reference.schema}.{reference.table} ({reference.columns.join(', ')}), ON DELETE{' '}
                    {reference.onDelete.toUpperCase()}:
                  </Text>{' '}
                  {onDeleteWords(reference.onDelete, reference.table, reference.columns)}
                </List.Item>
              ))}
            </List>
          </Stack>
        )}
        {mustType && (
          <TextInput
            label={bulkDialogMessages.typeCount(shown)}
            description="Digits only; the commas may be left out."
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            inputMode="numeric"
            autoComplete="off"
            data-autofocus
          />
        )}
        {running && (
          <Text size="sm" c="dimmed">
            {bulkDialogMessages.oneAtATime}
          </Text>
        )}
        {problemAlert}
        <Group justify="flex-end">
          <Button variant="default" onClick={action === 'update' ? () => setStep({ name: 'form' }) : onClose}>
            {action === 'update' ? 'Back' : 'Cancel'}
          </Button>
          <Button
            color={action === 'delete' ? 'red' : undefined}
            disabled={!confirmed || count === 0 || running}
            loading={run.isPending}
            onClick={() => start(count)}
          >
            {action === 'update'
              ? `Set values on ${rowsText(count, capped)}`
              : `Delete ${rowsText(count, capped)}`}
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <Modal
      opened
      onClose={onClose}
      title={title}
      size="xl"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {content}
    </Modal>
  );
}

/** The 409's data: the count now. */
function countOf(details: unknown): { count: number; capped: boolean } | null {
  if (typeof details !== 'object' || details === null) return null;
  const { count, capped } = details as { count?: unknown; capped?: unknown };
  return typeof count === 'number' ? { count, capped: capped === true } : null;
}

const valueText = (value: CellValue | undefined) =>
  value === null || value === undefined ? 'NULL' : typeof value === 'string' ? value : String(value);

/** The sample: the key's columns and the set columns (a delete: the key and a few more), before → after. */
function SampleTable({ table, preview, set }: { table: TableListItem; preview: BulkPreview; set: string[] }) {
  const key = bulkKeyColumns(table);
  const others = set.length
    ? set
    : table.columns
        .map((column) => column.name)
        .filter((name) => !key.includes(name))
        .slice(0, 3);
  const names = [...key, ...others.filter((name) => !key.includes(name))];
  const more = preview.count - preview.sample.length;
  return (
    <Stack gap={4}>
      <Text size="sm" c="dimmed">
        {preview.sample.length < preview.count
          ? `The first ${preview.sample.length} of them, before → after:`
          : 'Before → after:'}
      </Text>
      <ScrollArea.Autosize mah={320} type="auto" viewportProps={{ tabIndex: 0, 'aria-label': 'Sample rows' }}>
        <Table striped withTableBorder fz="sm" verticalSpacing={4} aria-label="Rows before and after">
          <Table.Thead>
            <Table.Tr>
              {names.map((name) => (
                <Table.Th key={name}>{name}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {preview.sample.map(({ before, after }, index) => (
              <Table.Tr key={index} data-deleted={after === null || undefined}>
                {names.map((name, column) => {
                  const was = valueText(before[name]);
                  if (after === null) {
                    return (
                      <Table.Td key={name}>
                        <Text span size="sm" td="line-through" c="red">
                          {was}
                        </Text>
                        {column === 0 && (
                          <Badge ml={6} size="xs" color="red" variant="light">
                            deleted
                          </Badge>
                        )}
                      </Table.Td>
                    );
                  }
                  const now = valueText(after[name]);
                  return (
                    <Table.Td key={name}>
                      {now === was ? (
                        was
                      ) : (
                        <>
                          <Text span size="sm" c="dimmed" td="line-through">
                            {was}
                          </Text>
                          {' → '}
                          <Text
                            span
                            size="sm"
                            fw={600}
                            px={4}
                            style={{ background: 'var(--mantine-color-yellow-light)', borderRadius: 4 }}
                          >
                            {now}
                          </Text>
                        </>
                      )}
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
      {more > 0 && (
        <Text size="xs" c="dimmed">
          and {countText(more, preview.capped)} more.
        </Text>
      )}
    </Stack>
  );
}

export default BulkDialog;
