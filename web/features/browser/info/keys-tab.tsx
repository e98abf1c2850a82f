import { useId } from 'react';
import { List, Stack, Text, Title } from '@mantine/core';
import type { TableListItem } from '#common/contract/sql.ts';
import { FactsTable } from './facts-table.tsx';

const NONE = 'None';

/** Keys (spec 000 §2): primary key, identity column, guid column, key columns, foreign keys. */
export function KeysTab({ table }: { table: TableListItem }) {
  const keyColumnsId = useId();
  const foreignKeysId = useId();
  const keyColumns = table.columns.filter(
    (column) => column.isPrimaryKey || column.isForeignKey || column.isForeignKeySource,
  );
  return (
    <Stack gap="md">
      <FactsTable
        caption="Keys"
        facts={[
          { label: 'Primary key', value: table.primaryKey.length > 0 ? table.primaryKey.join(', ') : NONE },
          { label: 'Identity column', value: table.identityColumn ?? NONE },
          { label: 'GUID column', value: table.guidColumn ?? NONE },
        ]}
      />

      <Title order={3} fz="md" id={keyColumnsId}>
        Key columns
      </Title>
      {keyColumns.length === 0 ? (
        <Text size="sm" c="dimmed">
          No key columns.
        </Text>
      ) : (
        <List size="sm" spacing={4} aria-labelledby={keyColumnsId}>
          {keyColumns.map((column) => (
            <List.Item key={column.name}>
              <Text span fw={600} size="sm">
                {column.name}
              </Text>{' '}
              <Text span size="sm" c="dimmed">
                {[
                  column.isPrimaryKey && 'primary key',
                  column.isForeignKey && 'foreign key',
                  column.isForeignKeySource && 'referenced by another table',
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </Text>
            </List.Item>
          ))}
        </List>
      )}

      <Title order={3} fz="md" id={foreignKeysId}>
        Foreign keys
      </Title>
      {table.foreignKeys.length === 0 ? (
        <Text size="sm" c="dimmed">
          No foreign keys.
        </Text>
      ) : (
        <List size="sm" spacing={6} aria-labelledby={foreignKeysId}>
          {table.foreignKeys.map((key) => (
            <List.Item key={key.name}>
              <Text span size="sm" style={{ overflowWrap: 'anywhere' }}>
                <Text span fw={600} size="sm">
                  {key.columns.join(', ')}
                </Text>
                {' → '}
                {key.referencedSchema}.{key.referencedTable}({key.referencedColumns.join(', ')})
              </Text>
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {key.name}
              </Text>
            </List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}
