import { useId, type ReactNode } from 'react';
import { Group, Paper, Stack, Title } from '@mantine/core';

/** A region of an admin page: a card named by its h2, with optional pieces beside the heading; `fill` makes it as
 * tall as its grid cell (the start page's cards side by side). */
export function AdminSection({
  title,
  aside,
  fill = false,
  children,
}: {
  title: string;
  aside?: ReactNode;
  fill?: boolean;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <Paper
      component="section"
      aria-labelledby={headingId}
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      h={fill ? '100%' : undefined}
    >
      <Stack gap="sm">
        <Group justify="space-between" align="center" gap="xs">
          <Title order={2} id={headingId} fz="h4">
            {title}
          </Title>
          {aside}
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}
