import { useMemo } from 'react';
import { Alert, Button, Drawer, Group, Loader, Stack, Text } from '@mantine/core';
import { IconCopy, IconDownload } from '@tabler/icons-react';
import { tableOfId } from '#common/links.ts';
import type { CellValue, Column, Row, TableListItem } from '#common/contract/sql.ts';
import { rowKeyOf, useRowByKey } from '#web/api/sql/row-by-key.ts';
import { byteSize, bytesOf, copyText } from '#web/features/browser/grid/cell-format.ts';
import { copyCellText } from '#web/features/browser/grid/cell-copy-button.tsx';
import {
  cutLengthOf,
  isWholeOf,
  wholeCopyText,
  wholeSizeText,
} from '#web/features/browser/grid/cut-values.ts';
import { parseJson } from '#web/features/browser/grid/json-value.ts';
import { JsonTree } from './json-tree.tsx';
import { downloadBytes, downloadName, hexLines } from './value-download.ts';
import { valueKindOf } from './value-kind.ts';
import classes from './value-panel.module.css';

/** The panel's own sentences (the spec has none for it). */
export const valuePanelMessages = {
  reading: 'Reading the whole value…',
  noKey: 'This table has no key to read the row by: this is the value the page read.',
  gone: 'This row is no longer in the table: this is the value the page read.',
  failed: (reason: string) =>
    `The value could not be read again (${reason}): this is the value the page read.`,
  changed: 'This value changed since the page was read: this is the value as it is now.',
  cut: (size: string) => `The page holds it cut: this is its start, of ${size}.`,
  notJson: 'This is not valid JSON, so it is shown as text.',
  copy: 'Copy value',
  download: 'Download',
  nullValue: 'null',
  close: 'Close',
  characters: (count: number) =>
    count === 1 ? '1 character' : `${count.toLocaleString('en-US')} characters`,
  firstBytes: (count: number) => `The first ${count.toLocaleString('en-US')} bytes:`,
  key: (key: string) => `Row ${key}`,
} as const;

/** How many bytes of a binary value the panel writes out in hexadecimal. */
export const PANEL_HEX_BYTES = 256;

interface ValuePanelProps {
  table: TableListItem;
  /** The row as the page answered it. */
  row: Row;
  column: Column;
  opened: boolean;
  onClose: () => void;
}

function TextValue({ text }: { text: string }) {
  return <pre className={classes.whole}>{text}</pre>;
}

function JsonValue({ text }: { text: string }) {
  const root = useMemo(() => parseJson(text), [text]);
  if (root === null) {
    return (
      <Stack gap="xs">
        <Text size="sm" c="dimmed">
          {valuePanelMessages.notJson}
        </Text>
        <TextValue text={text} />
      </Stack>
    );
  }
  return <JsonTree key={text} root={root} />;
}

function BinaryValue({ bytes }: { bytes: Uint8Array }) {
  const lines = hexLines(bytes, PANEL_HEX_BYTES);
  if (lines.length === 0) return null;
  return (
    <Stack gap={4}>
      {bytes.length > PANEL_HEX_BYTES && (
        <Text size="sm" c="dimmed">
          {valuePanelMessages.firstBytes(PANEL_HEX_BYTES)}
        </Text>
      )}
      <pre className={`${classes.whole} ${classes.hex}`} tabIndex={0}>
        {lines.join('\n')}
      </pre>
    </Stack>
  );
}

/**
 * One value whole, in a side panel (docs/decisions/0064-rich-values.md): read again by the row's key (so a value the
 * page holds cut, or one changed since, shows as the database holds it now), with its length, a copy button, and by
 * its kind: text wrapped in monospace, JSON as a collapsible tree, binary as its size, its first bytes in
 * hexadecimal and a download. Where the row cannot be read again, the page's value shows, and the panel says so.
 */
export function ValuePanel({ table, row, column, opened, onClose }: ValuePanelProps) {
  const names = useMemo(() => tableOfId(table.id), [table.id]);
  const ref = { db: names?.database ?? '', schema: table.schema, table: table.name };
  const key = useMemo(() => (names ? rowKeyOf(table, row) : null), [names, table, row]);
  const fresh = useRowByKey(ref, key);
  const pageValue: CellValue = row[column.name] ?? null;
  const cutLength = cutLengthOf(row, column.name);
  const current = fresh.data;
  const value: CellValue = current ? (current[column.name] ?? null) : pageValue;
  const kind = valueKindOf(column) ?? 'text';

  let note: { color: string; text: string } | null = null;
  if (key === null) note = { color: 'gray', text: valuePanelMessages.noKey };
  else if (fresh.isError)
    note = {
      color: 'yellow',
      text: valuePanelMessages.failed(
        fresh.error instanceof Error ? fresh.error.message : String(fresh.error),
      ),
    };
  else if (current === null) note = { color: 'yellow', text: valuePanelMessages.gone };
  else if (
    current &&
    value !== pageValue &&
    // A value the page holds cut (decision 0066) is not a changed one when this is its whole.
    (cutLength === undefined || !isWholeOf(column, pageValue, value, cutLength))
  )
    note = { color: 'blue', text: valuePanelMessages.changed };
  // The page's value shown, and the page holds it cut: say so, with its whole size.
  if (note && !current && cutLength !== undefined)
    note = { ...note, text: `${note.text} ${valuePanelMessages.cut(wholeSizeText(column, cutLength))}` };

  const text = value === null ? null : String(value);
  const bytes = useMemo(() => (kind === 'binary' && text !== null ? bytesOf(text) : null), [kind, text]);
  const size =
    text === null
      ? null
      : kind === 'binary'
        ? byteSize(bytes?.length ?? 0)
        : valuePanelMessages.characters(Array.from(text).length);
  const keyText = key ? Object.values(key).map(String).join(', ') : null;

  const body = () => {
    if (text === null)
      return (
        <Text c="dimmed" ff="monospace">
          {valuePanelMessages.nullValue}
        </Text>
      );
    if (kind === 'binary') return bytes ? <BinaryValue bytes={bytes} /> : <TextValue text={text} />;
    if (kind === 'json') return <JsonValue text={text} />;
    return <TextValue text={text} />;
  };

  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size="min(40rem, 100%)"
      closeButtonProps={{ 'aria-label': valuePanelMessages.close }}
      title={
        <Stack gap={0}>
          <Text fw={600}>{column.name}</Text>
          <Text size="xs" c="dimmed">
            {table.name}
            {keyText !== null && ` · ${valuePanelMessages.key(keyText)}`}
          </Text>
        </Stack>
      }
    >
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text size="sm" c="dimmed">
            {column.type}
            {size !== null && ` · ${size}`}
          </Text>
          <Group gap="xs">
            {fresh.isFetching && (
              <Group gap={6} role="status">
                <Loader size="xs" />
                <Text size="sm" c="dimmed">
                  {valuePanelMessages.reading}
                </Text>
              </Group>
            )}
            {text !== null && (
              <Button
                size="compact-sm"
                variant="default"
                leftSection={<IconCopy size={14} aria-hidden />}
                onClick={() =>
                  copyCellText(
                    column.name,
                    // Never the page's cut value: without the whole one, it is read again (or refused).
                    current ? copyText(column, value) : wholeCopyText(table, row, column),
                    () => undefined,
                  )
                }
              >
                {valuePanelMessages.copy}
              </Button>
            )}
            {bytes && (
              <Button
                size="compact-sm"
                leftSection={<IconDownload size={14} aria-hidden />}
                onClick={() => downloadBytes(bytes, downloadName(table.name, key, column.name))}
              >
                {valuePanelMessages.download}
              </Button>
            )}
          </Group>
        </Group>
        {note && (
          <Alert color={note.color} variant="light" p="xs">
            <Text size="sm">{note.text}</Text>
          </Alert>
        )}
        {body()}
      </Stack>
    </Drawer>
  );
}
