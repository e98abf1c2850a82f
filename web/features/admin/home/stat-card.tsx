import type { ComponentType } from 'react';
import { Link } from 'react-router';
import { Group, Paper, Text, ThemeIcon } from '@mantine/core';
import classes from './stat-card.module.css';

/** A count with its label below it; a link to the page that lists them when `to` is given. The link's name
 * reads "{value} {label}" (e.g. "12 Users"). */
export function StatCard({
  label,
  value,
  to,
  icon: Icon,
  color = 'indigo',
}: {
  label: string;
  value: number;
  to?: string;
  icon: ComponentType<{ size?: number; 'aria-hidden'?: boolean | 'true' }>;
  color?: string;
}) {
  const body = (
    <>
      <Group justify="space-between" align="center" wrap="nowrap" gap="xs">
        <Text fz={{ base: 'lg', sm: 'xl' }} fw={700} lh={1.2}>
          {value.toLocaleString('en-US')}
        </Text>
        <ThemeIcon variant="light" color={color} size="md" radius="md" aria-hidden="true">
          <Icon size={16} aria-hidden="true" />
        </ThemeIcon>
      </Group>
      <Text size="sm" c="dimmed" lh={1.3} mt={2}>
        {label}
      </Text>
    </>
  );
  return to ? (
    <Paper component={Link} to={to} withBorder radius="md" p="sm" className={classes.card} data-link>
      {body}
    </Paper>
  ) : (
    <Paper withBorder radius="md" p="sm" className={classes.card}>
      {body}
    </Paper>
  );
}
