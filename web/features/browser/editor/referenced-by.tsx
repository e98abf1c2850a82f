import type { MouseEvent } from 'react';
import { Link } from 'react-router';
import { IconChevronRight } from '@tabler/icons-react';
import { Alert, Badge, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import type { Reference } from '#common/contract/relations.ts';
import type { Row, TableListItem } from '#common/contract/sql.ts';
import { failureMessage } from '#web/api/failure-message.ts';
import { useReferences } from '#web/api/sql/references.ts';
import { editorMessages as em } from './editor-messages.ts';
import { referencingName, referencingRowsUrl } from './referencing.ts';
import classes from './referenced-by.module.css';

export interface ReferencedByProps {
  db: string;
  table: TableListItem;
  /** The row as the editor last loaded or saved it: its key asks the server, its values make the filters. */
  row: Row;
  /** A link was followed: the editor closes (or, with pending changes, calls preventDefault and stays). */
  onFollow: (event: MouseEvent<HTMLAnchorElement>) => void;
}

/** How many rows point at the row: "7 rows", "1 row", "1,000+ rows" or "not counted". */
function CountBadge({ reference }: { reference: Reference }) {
  if (reference.count === null) {
    return (
      <Badge variant="outline" color="gray" tt="none" style={{ flexShrink: 0 }}>
        {em.notCounted}
      </Badge>
    );
  }
  return (
    <Badge
      variant="light"
      color={reference.count === 0 ? 'gray' : 'blue'}
      tt="none"
      style={{ flexShrink: 0 }}
    >
      {em.rowCount(reference.count, reference.capped)}
    </Badge>
  );
}

/** One foreign key that points at the row: a link to the referencing rows when there can be some. */
function ReferenceEntry({
  db,
  row,
  name,
  reference,
  onFollow,
}: {
  db: string;
  row: Row;
  name: string;
  reference: Reference;
  onFollow: (event: MouseEvent<HTMLAnchorElement>) => void;
}) {
  const url = referencingRowsUrl(db, reference, row);
  const body = (
    <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
      <Stack gap={2} miw={0} style={{ flex: 1 }}>
        <Group gap="xs" justify="space-between" align="flex-start" wrap="nowrap">
          <Text
            fw={600}
            size="sm"
            className={classes.name}
            c={url ? 'var(--mantine-color-anchor)' : undefined}
            style={{ overflowWrap: 'anywhere' }}
          >
            {name}
          </Text>
          <CountBadge reference={reference} />
        </Group>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {reference.columns.join(', ')} → {reference.referencedColumns.join(', ')}
        </Text>
        {reference.count === null && (
          <Text size="xs" c="dimmed">
            {em.notCountedReason}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          {url ? em.onDelete(reference.onDelete) : em.referencesNoValue}
        </Text>
      </Stack>
      {url && (
        <IconChevronRight size={18} aria-hidden="true" style={{ flexShrink: 0, alignSelf: 'center' }} />
      )}
    </Group>
  );
  return (
    <li>
      {url ? (
        <Paper
          component={Link}
          to={url}
          onClick={onFollow}
          withBorder
          radius="md"
          p="sm"
          className={classes.entry}
          title={em.openReferencing(name)}
        >
          {body}
        </Paper>
      ) : (
        <Paper withBorder radius="md" p="sm">
          {body}
        </Paper>
      )}
    </li>
  );
}

/**
 * The editor's Referenced-by tab (issue 37, docs/decisions/0065-references.md, Browser): for each foreign key of a
 * table the person may read that points at this table, the referencing table and columns, how many rows point at this
 * row, and what deleting it does to them; each opens the referencing table's grid filtered to those rows. Asked when
 * the tab opens (the editor's tabs do not keep hidden panels mounted).
 */
export function ReferencedBy({ db, table, row, onFollow }: ReferencedByProps) {
  const ref = { db, schema: table.schema, table: table.name };
  const found = useReferences(ref, table, row);

  if (found.isPending) {
    return (
      <Group gap="sm" role="status">
        <Loader size="sm" />
        <Text size="sm">{em.referencesLoading}</Text>
      </Group>
    );
  }
  if (found.isError) {
    return (
      <Alert color="red" role="alert">
        {failureMessage(found.error, em.referencesFailed)}
      </Alert>
    );
  }
  if (found.data.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {em.referencesNone}
      </Text>
    );
  }
  return (
    <Stack component="ul" gap="sm" aria-label={em.referencesList} m={0} p={0} style={{ listStyle: 'none' }}>
      {found.data.map((reference) => (
        <ReferenceEntry
          key={`${reference.schema}.${reference.table}.${reference.constraint}`}
          db={db}
          row={row}
          name={referencingName(reference, table.schema, found.data)}
          reference={reference}
          onFollow={onFollow}
        />
      ))}
    </Stack>
  );
}
