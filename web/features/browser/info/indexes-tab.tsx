import { Badge, Group, Paper, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import type { Index, TableListItem } from '#common/contract/sql.ts';
import { countOrUnknown, formatPercent, fragmentationColor, UNKNOWN } from './table-info-format.ts';
import classes from './table-info.module.css';

/** Indexes (spec 000 §2): per index the name, type, unique flag, allocation type, page count and an
 * average-fragmentation bar in percent; "unknown" where the engine cannot tell. */
export function IndexesTab({ table }: { table: TableListItem }) {
  if (table.indexes.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No indexes.
      </Text>
    );
  }
  return (
    <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Indexes">
      {table.indexes.map((index) => (
        <li key={index.name}>
          <IndexCard index={index} />
        </li>
      ))}
    </Stack>
  );
}

function IndexCard({ index }: { index: Index }) {
  return (
    <Paper withBorder p="sm" component="article" aria-label={`Index ${index.name}`}>
      <Group gap="xs" mb="xs" wrap="wrap">
        <Text fw={700} size="sm" style={{ overflowWrap: 'anywhere' }}>
          {index.name}
        </Text>
        {index.isPrimaryKey && (
          <Badge size="sm" variant="light">
            primary key
          </Badge>
        )}
        {/* Outline (indigo 7 on the page) and light gray keep small text at WCAG AA; light teal did not. */}
        <Badge
          size="sm"
          variant={index.isUnique ? 'outline' : 'light'}
          color={index.isUnique ? 'indigo' : 'gray'}
        >
          {index.isUnique ? 'unique' : 'not unique'}
        </Badge>
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" verticalSpacing={4}>
        <Figure label="Type" value={index.type || UNKNOWN} />
        <Figure label="Columns" value={index.columns.join(', ') || UNKNOWN} />
        <Figure label="Allocation type" value={index.allocationType ?? UNKNOWN} />
        <Figure label="Page count" value={countOrUnknown(index.pageCount)} />
      </SimpleGrid>
      <Group gap="xs" mt="xs" wrap="nowrap" align="center">
        <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          Average fragmentation
        </Text>
        {index.averageFragmentation === null ? (
          <Text size="sm">{UNKNOWN}</Text>
        ) : (
          <>
            <Progress
              className={classes.fragmentation}
              value={Math.min(100, Math.max(0, index.averageFragmentation))}
              color={fragmentationColor(index.averageFragmentation)}
              size="lg"
              aria-label={`Average fragmentation of ${index.name}`}
            />
            <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
              {formatPercent(index.averageFragmentation)}
            </Text>
          </>
        )}
      </Group>
      {index.statisticsSource && (
        <Text size="xs" c="dimmed" mt={4}>
          Figures from {index.statisticsSource}
        </Text>
      )}
    </Paper>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      <Text span c="dimmed" size="sm">
        {label}:
      </Text>{' '}
      {value}
    </Text>
  );
}
