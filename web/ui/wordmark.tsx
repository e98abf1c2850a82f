import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconDatabase } from '@tabler/icons-react';
import classes from './wordmark.module.css';

/** The DBUI logo: a database mark and the name. Its accessible text is just "DBUI". `compact` shows only the
 * mark between the mobile breakpoint and tablets, where the header's menu needs the room. */
export function Wordmark({ inverted = false, compact = false }: { inverted?: boolean; compact?: boolean }) {
  return (
    <Group gap={8} wrap="nowrap">
      <ThemeIcon size={34} radius="md" variant={inverted ? 'white' : 'filled'} aria-hidden="true">
        <IconDatabase size={20} stroke={2} />
      </ThemeIcon>
      <Text
        component="span"
        fw={800}
        fz={22}
        lh={1}
        // 'bright' is near-black in light and white in dark: dark 8 alone vanished on the dark header.
        c={inverted ? 'white' : 'bright'}
        className={compact ? classes.compact : undefined}
        style={{ letterSpacing: '0.02em' }}
      >
        DBUI
      </Text>
    </Group>
  );
}
