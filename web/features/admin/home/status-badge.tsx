import type { ReactNode } from 'react';
import { Badge } from '@mantine/core';

/**
 * A light badge's text colour that passes WCAG AA in both schemes: Mantine's light variant writes a colour's own
 * shade on its pale tint (green, yellow and orange fall below 4.5:1 in the light scheme), so the light scheme takes
 * the colour's darkest shade mixed with black and the dark scheme keeps Mantine's.
 */
export const badgeText = (color: string) =>
  `light-dark(color-mix(in srgb, var(--mantine-color-${color}-9) 55%, black), var(--badge-color))`;

/** A light badge with readable text in both schemes, in sentence case. */
export function LightBadge({ color = 'indigo', children }: { color?: string; children: ReactNode }) {
  return (
    <Badge color={color} variant="light" c={badgeText(color)} tt="none" style={{ flexShrink: 0 }}>
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
