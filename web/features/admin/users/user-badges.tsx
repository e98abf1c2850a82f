import { Badge, Box, Group, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import type { AdminUser } from '#common/contract/admin.ts';
import { lockEnd, secondFactorLabel } from './user-format.ts';
import { userTexts as ut } from './user-texts.ts';

/** A user's verified second factors as badges (Email, Phone, App, Passkey), "None" when there is none. */
export function SecondFactorBadges({ factors }: { factors: AdminUser['twoFactor'] }) {
  if (factors.length === 0)
    return (
      <Text span size="sm" c="dimmed">
        {ut.none}
      </Text>
    );
  return (
    <Group gap={4} wrap="wrap">
      {factors.map((factor) => (
        <Badge key={factor} variant="outline" color="gray" size="sm" tt="none">
          {secondFactorLabel(factor)}
        </Badge>
      ))}
    </Group>
  );
}

/** A user's roles as badges, "None" when they have none. */
export function RoleBadges({ roles }: { roles: AdminUser['roles'] }) {
  if (roles.length === 0)
    return (
      <Text span size="sm" c="dimmed">
        {ut.none}
      </Text>
    );
  return (
    <Group gap={4} wrap="wrap">
      {roles.map((role) => (
        <Badge key={role.Id} variant="light" size="sm" tt="none">
          {role.Name}
        </Badge>
      ))}
    </Group>
  );
}

/** "Locked" (until when in a tooltip, and for screen readers in hidden text after it) or "Active". The hidden
 * text is absolutely placed: its wrapper is its containing block, so inside a table that scrolls sideways it cannot
 * widen the page. */
export function StatusBadge({ user }: { user: Pick<AdminUser, 'isLocked' | 'lockedUntil'> }) {
  const end = lockEnd(user);
  if (end === null)
    return (
      <Badge variant="light" color="green" size="sm" tt="none">
        {ut.active}
      </Badge>
    );
  return (
    <Box component="span" pos="relative" display="inline-block">
      <Tooltip label={`${ut.locked} ${end}`} withArrow>
        <Badge variant="filled" color="red.9" size="sm" tt="none">
          {ut.locked}
        </Badge>
      </Tooltip>
      <VisuallyHidden> {end}</VisuallyHidden>
    </Box>
  );
}
