import { Box, Group, Pagination, Text } from '@mantine/core';
import { messageTexts as mt } from './message-texts.ts';

const controlNames = {
  first: mt.firstPage,
  previous: mt.previousPage,
  next: mt.nextPage,
  last: mt.lastPage,
} as const;

/** The navigation "Pages" under the list: how many messages, and Mantine's Pagination with named controls. */
export function MessagesPager({
  page,
  pageCount,
  count,
  onPageChange,
}: {
  page: number;
  pageCount: number;
  /** The messages of the list shown; null while unknown. */
  count: number | null;
  onPageChange: (page: number) => void;
}) {
  return (
    <Group component="nav" aria-label={mt.pages} justify="space-between" gap="sm" wrap="wrap">
      <Text size="sm" c="dimmed" aria-live="polite">
        {count === null ? '' : mt.count(count)}
      </Text>
      <Box>
        <Pagination
          total={pageCount}
          value={Math.min(page, pageCount)}
          onChange={onPageChange}
          withEdges={pageCount > 5}
          siblings={1}
          size="sm"
          getItemProps={(item) => ({ 'aria-label': mt.pageLabel(item) })}
          getControlProps={(control) => ({ 'aria-label': controlNames[control] })}
        />
      </Box>
    </Group>
  );
}
