import { Box, Group, Pagination, Text } from '@mantine/core';
import { userTexts as ut } from './user-texts.ts';

export interface UsersPagerProps {
  page: number;
  pageCount: number;
  /** The matching users; null while unknown. */
  count: number | null;
  onPageChange: (page: number) => void;
}

const controlNames = {
  first: ut.firstPage,
  previous: ut.previousPage,
  next: ut.nextPage,
  last: ut.lastPage,
} as const;

/** The navigation "Pages": Mantine's Pagination with named controls and the number of matching users. */
export function UsersPager({ page, pageCount, count, onPageChange }: UsersPagerProps) {
  return (
    <Group component="nav" aria-label={ut.pages} justify="space-between" gap="sm" wrap="wrap">
      <Text size="sm" c="dimmed" aria-live="polite">
        {count === null ? '' : ut.userCount(count)}
      </Text>
      <Box>
        <Pagination
          total={pageCount}
          value={Math.min(page, pageCount)}
          onChange={onPageChange}
          withEdges={pageCount > 5}
          siblings={1}
          size="sm"
          getItemProps={(item) => ({ 'aria-label': ut.pageLabel(item) })}
          getControlProps={(control) => ({ 'aria-label': controlNames[control] })}
        />
      </Box>
    </Group>
  );
}
