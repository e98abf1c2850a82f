import { useState } from 'react';
import { Button, Checkbox, Group, NativeSelect, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import type { ImportPreview } from '#common/contract/imports.ts';
import type { ImportUploadOptions } from '#web/api/sql/import-upload.ts';
import { delimiterChoices } from './import-text.ts';

const encodingChoices = [
  { value: 'utf-8', label: 'UTF-8' },
  { value: 'latin1', label: 'Latin-1' },
];

const formatNames = { csv: 'CSV', jsonl: 'JSON Lines', xlsx: 'XLSX' } as const;

/** How the file was read, in words: "CSV, comma, with a header, UTF-8", "XLSX, sheet “Orders”, with a header". */
function readText(options: ImportPreview['options']): string {
  if (options.format === 'xlsx')
    return [
      'XLSX',
      ...(options.sheet ? [`sheet “${options.sheet}”`] : []),
      options.header ? 'with a header' : 'no header',
    ].join(', ');
  if (options.format !== 'csv') return `${formatNames[options.format]}, ${options.encoding.toUpperCase()}`;
  const delimiter = delimiterChoices.find((choice) => choice.value === options.delimiter);
  return [
    'CSV',
    delimiter ? delimiter.label.replace(/ \(.*\)$/, '').toLowerCase() : `“${options.delimiter}”`,
    options.header ? 'with a header' : 'no header',
    options.encoding === 'utf-8' ? 'UTF-8' : 'Latin-1',
  ].join(', ');
}

/**
 * How the file is read (as detected, changeable: the file is sent again with the chosen options) and its first rows
 * as parsed, in a table that scrolls inside itself.
 */
export function ImportPreviewSection({
  preview,
  busy,
  onReread,
}: {
  preview: ImportPreview;
  busy: boolean;
  onReread: (options: ImportUploadOptions) => void;
}) {
  const detected = preview.options;
  const [delimiter, setDelimiter] = useState(detected.delimiter);
  const [header, setHeader] = useState(detected.header);
  const [encoding, setEncoding] = useState<'utf-8' | 'latin1'>(detected.encoding);
  const [sheet, setSheet] = useState(detected.sheet ?? '');
  const changed =
    delimiter !== detected.delimiter ||
    header !== detected.header ||
    encoding !== detected.encoding ||
    sheet !== (detected.sheet ?? '');
  const csv = detected.format === 'csv';
  const xlsx = detected.format === 'xlsx';
  const sheets = detected.sheets ?? [];
  // What is sent again: the options that apply to the file's format.
  const reread: ImportUploadOptions = csv
    ? { delimiter, header, encoding }
    : xlsx
      ? { header, ...(sheet ? { sheet } : {}) }
      : { encoding };
  const delimiters = delimiterChoices.some((choice) => choice.value === detected.delimiter)
    ? delimiterChoices
    : [...delimiterChoices, { value: detected.delimiter, label: `“${detected.delimiter}”` }];

  return (
    <Stack gap="sm" component="section" aria-labelledby="import-preview-title">
      <Title order={3} fz="h4" id="import-preview-title">
        The file
      </Title>
      <Text size="sm" c="dimmed">
        {preview.fileName} · read as {readText(detected)}
      </Text>
      <Group gap="sm" align="flex-end" wrap="wrap">
        {csv && (
          <NativeSelect
            label="Delimiter"
            data={delimiters.map((choice) => ({ value: choice.value, label: choice.label }))}
            value={delimiter}
            onChange={(event) => setDelimiter(event.currentTarget.value)}
            w={170}
          />
        )}
        {xlsx && sheets.length > 1 && (
          <NativeSelect
            label="Sheet"
            data={sheets}
            value={sheet}
            onChange={(event) => setSheet(event.currentTarget.value)}
            w={200}
          />
        )}
        {!xlsx && (
          <NativeSelect
            label="Encoding"
            data={encodingChoices}
            value={encoding}
            onChange={(event) => setEncoding(event.currentTarget.value === 'latin1' ? 'latin1' : 'utf-8')}
            w={130}
          />
        )}
        {(csv || xlsx) && (
          <Checkbox
            label="First row names the columns"
            checked={header}
            onChange={(event) => setHeader(event.currentTarget.checked)}
            mb={8}
          />
        )}
        <Button variant="default" disabled={!changed} loading={busy} onClick={() => onReread(reread)}>
          Read the file again
        </Button>
      </Group>

      <ScrollArea.Autosize mah={320} type="auto" offsetScrollbars>
        <Table
          striped
          withTableBorder
          withColumnBorders
          fz="sm"
          style={{ whiteSpace: 'nowrap' }}
          aria-label={`The first ${preview.rows.length} rows of the file`}
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Row</Table.Th>
              {preview.fileColumns.map((column) => (
                <Table.Th key={column} scope="col">
                  {column}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {preview.rows.map((row, index) => (
              <Table.Tr key={index}>
                <Table.Td c="dimmed">{index + 1}</Table.Td>
                {preview.fileColumns.map((column, at) => {
                  const value = row[at] ?? null;
                  return (
                    <Table.Td key={column} maw={280} style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
                      {value === null ? (
                        <Text span c="dimmed" fz="sm" fs="italic">
                          empty
                        </Text>
                      ) : (
                        value
                      )}
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
      {preview.rows.length === 0 && (
        <Text size="sm" c="dimmed">
          The file has no rows after its header.
        </Text>
      )}
    </Stack>
  );
}
