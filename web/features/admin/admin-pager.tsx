import { Box, Group, Pagination, Text } from '@mantine/core';

const controlNames = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
} as const;

export interface AdminPagerProps {
  page: number;
  pageCount: number;
  /** How many the list holds, in words ("3 users"); empty while unknown. */
  countText: string;
  onPageChange: (page: number) => void;
}

/** The navigation "Pages" under an admin list: the count in words and Mantine's Pagination with named controls. */
export function AdminPager({ page, pageCount, countText, onPageChange }: AdminPagerProps) {
  return (
    <Group component="nav" aria-label="Pages" justify="space-between" gap="sm" wrap="wrap">
      <Text size="sm" c="dimmed" aria-live="polite">
        {countText}
      </Text>
      <Box>
        <Pagination
          total={pageCount}
          value={Math.min(page, pageCount)}
          onChange={onPageChange}
          withEdges={pageCount > 5}
          siblings={1}
          size="sm"
          getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
          getControlProps={(control) => ({ 'aria-label': controlNames[control] })}
        />
      </Box>
    </Group>
  );
}
