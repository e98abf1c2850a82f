import { Box, Group, Stack, Text } from '@mantine/core';
import type { AuditEntryView } from '#common/contract/admin.ts';
import { bulkEntryOf, bulkFacts } from '#web/features/admin/bulk-entry-text.ts';
import { BulkRowList } from './bulk-row-list.tsx';
import { ChangeComparison } from './change-comparison.tsx';
import { detailPairs, entryChanges, keyText } from './entry-changes.ts';
import { UndoControl } from './undo-control.tsx';
import classes from './entry-detail.module.css';

/** Name/value pairs as a description list. */
function Pairs({ pairs }: { pairs: [string, string][] }) {
  return (
    <Box component="dl" className={classes.pairs}>
      {pairs.map(([name, value]) => (
        <div key={name} className={classes.pair}>
          <Text component="dt" size="sm" fw={600}>
            {name}
          </Text>
          <Text component="dd" size="sm" className={classes.value}>
            {value}
          </Text>
        </div>
      ))}
    </Box>
  );
}

/** The region "Entry {id}": what a data change did field by field (or the entry's detail), where it came from, and
 * its undo. A bulk change (or its undo) says its filter, set and counts in words, then its undo, then its rows a
 * page at a time (the undo before a list that can be long). */
export function EntryDetail({ entry, id }: { entry: AuditEntryView; id: string }) {
  const bulk = bulkEntryOf(entry);
  const changes = bulk ? null : entryChanges(entry.detail);
  const others = changes || bulk ? [] : detailPairs(entry.detail);
  const facts: [string, string][] = [
    ['Action', entry.action],
    ['Address', entry.address ?? 'not recorded'],
    ...(bulk ? bulkFacts(bulk) : []),
  ];
  if (changes?.key) facts.push(['Key', keyText(changes.key)]);
  if (changes?.undoes != null) facts.push(['Undoes', `entry #${changes.undoes}`]);
  return (
    <Stack component="section" id={id} aria-label={`Entry ${entry.id}`} gap="sm" py="xs">
      <Pairs pairs={facts} />
      {bulk ? (
        <>
          <Group className={classes.actions}>
            <UndoControl entry={entry} />
          </Group>
          <BulkRowList entryId={entry.id} />
        </>
      ) : (
        <>
          {changes ? (
            <ChangeComparison changes={changes} />
          ) : others.length ? (
            <Pairs pairs={others} />
          ) : (
            <Text size="sm" c="dimmed">
              No further detail was recorded.
            </Text>
          )}
          <Group className={classes.actions}>
            <UndoControl entry={entry} />
          </Group>
        </>
      )}
    </Stack>
  );
}
