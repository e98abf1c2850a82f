import { Badge, Group, Table, Text } from '@mantine/core';
import type { EntryChanges } from './entry-changes.ts';
import { valueText } from './entry-changes.ts';
import classes from './change-comparison.module.css';

function Value({ value }: { value: unknown }) {
  const text = valueText(value);
  return value === null || value === undefined ? (
    <Text span size="sm" c="dimmed" fs="italic">
      {text}
    </Text>
  ) : (
    <Text span size="sm" className={classes.value}>
      {text}
    </Text>
  );
}

/** The table "Changes": each field with its value before and after; a changed field carries a "changed" badge and
 * a highlighted row (the word, not the colour alone, says it). An insert shows After only, a delete Before only. */
export function ChangeComparison({ changes }: { changes: EntryChanges }) {
  const { before, after } = changes.sides;
  const changedCount = changes.fields.filter((f) => f.changed).length;
  return (
    <Table.ScrollContainer minWidth={before && after ? 320 : 220} type="native">
      <Table aria-label="Changes" fz="sm" verticalSpacing={4} layout="fixed" withTableBorder>
        {before && after && (
          <Table.Caption>
            {changedCount === 1 ? '1 field changed' : `${changedCount} fields changed`}
          </Table.Caption>
        )}
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={before && after ? '30%' : '40%'}>Field</Table.Th>
            {before && <Table.Th>Before</Table.Th>}
            {after && <Table.Th>After</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {changes.fields.map((field) => (
            <Table.Tr key={field.name} className={field.changed ? classes.changed : undefined}>
              <Table.Th scope="row" fw={500}>
                <Group gap={6} wrap="wrap">
                  <span className={classes.value}>{field.name}</span>
                  {field.changed && (
                    <Badge size="xs" radius="sm" tt="none" className={classes.badge}>
                      changed
                    </Badge>
                  )}
                </Group>
              </Table.Th>
              {before && (
                <Table.Td>
                  <Value value={field.before} />
                </Table.Td>
              )}
              {after && (
                <Table.Td fw={field.changed ? 600 : undefined}>
                  <Value value={field.after} />
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
