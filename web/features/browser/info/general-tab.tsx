import { useId } from 'react';
import { Group, Stack, Text, Title } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import type { Column, TableListItem } from '#common/contract/sql.ts';
import { ColumnTypeIcon } from '#web/features/browser/column-type-icon.tsx';
import { FactsTable } from './facts-table.tsx';
import { columnMarks, columnTypeText, formatCount, formatRowCount } from './table-info-format.ts';
import classes from './table-info.module.css';

/** General (spec 000 §2): database, schema, table, counts, and a chip per column with its type icon. */
export function GeneralTab({ db, table }: { db: string; table: TableListItem }) {
  const columnsId = useId();
  return (
    <Stack gap="md">
      <FactsTable
        caption="General"
        facts={[
          { label: 'Database', value: db },
          { label: 'Schema', value: table.schema },
          { label: 'Table', value: table.name },
          { label: 'Kind', value: table.isView ? 'View' : 'Table' },
          { label: 'Columns', value: formatCount(table.numberOfColumns) },
          { label: 'Rows', value: formatRowCount(table.numberOfRows, table.numberOfRowsIsEstimate) },
        ]}
      />
      <Title order={3} fz="md" id={columnsId}>
        Columns
      </Title>
      <ul className={classes.chips} aria-labelledby={columnsId}>
        {table.columns.map((column) => (
          <li key={column.name}>
            <ColumnChip column={column} />
          </li>
        ))}
      </ul>
    </Stack>
  );
}

/** One column: type icon, name, type, and its marks (primary key, identity, nullable…). */
function ColumnChip({ column }: { column: Column }) {
  const marks = columnMarks(column);
  return (
    <Group gap={6} wrap="wrap" className={classes.chip} data-primary-key={column.isPrimaryKey || undefined}>
      <ColumnTypeIcon group={column.typeGroup} />
      <Text span fw={600} size="sm">
        {column.name}
      </Text>
      <Text span size="sm" c="dimmed" ff="monospace">
        {columnTypeText(column)}
      </Text>
      {column.isPrimaryKey && <IconKey size={14} aria-hidden="true" />}
      {marks.length > 0 && (
        <Text span size="xs" c="dimmed">
          {marks.join(' · ')}
        </Text>
      )}
    </Group>
  );
}
