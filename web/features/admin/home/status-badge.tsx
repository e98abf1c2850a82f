import { Badge } from '@mantine/core';

const looks = {
  up: { color: 'green', label: 'Up' },
  degraded: { color: 'yellow', label: 'Degraded' },
  down: { color: 'red', label: 'Down' },
} as const;

/** Up, Degraded or Down in words (the colour only repeats them). */
export function StatusBadge({ status }: { status: keyof typeof looks }) {
  const { color, label } = looks[status];
  return (
    <Badge color={color} variant="light" style={{ flexShrink: 0 }}>
      {label}
    </Badge>
  );
}
