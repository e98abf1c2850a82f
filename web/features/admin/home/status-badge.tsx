import type { ReactNode } from 'react';
import { Badge } from '@mantine/core';

/** A light badge in sentence case (the theme keeps its text readable in both schemes). */
export function LightBadge({ color = 'indigo', children }: { color?: string; children: ReactNode }) {
  return (
    <Badge color={color} variant="light" tt="none" style={{ flexShrink: 0 }}>
      {children}
    </Badge>
  );
}

const looks = {
  up: { color: 'green', label: 'Up' },
  degraded: { color: 'yellow', label: 'Degraded' },
  down: { color: 'red', label: 'Down' },
} as const;

/** Up, Degraded or Down in words (the colour only repeats them). */
export function StatusBadge({ status }: { status: keyof typeof looks }) {
  const { color, label } = looks[status];
  return <LightBadge color={color}>{label}</LightBadge>;
}
