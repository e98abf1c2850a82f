import type { ReactNode } from 'react';
import { Badge, Box, Group, SimpleGrid, Text } from '@mantine/core';
import type { AdminUserDetail } from '#common/contract/admin.ts';
import { SecondFactorBadges, StatusBadge } from './user-badges.tsx';
import { lockEnd, secondFactorLabel, shortInstant } from './user-format.ts';
import classes from './user-profile.module.css';
import { AdminSection } from '#web/features/admin/admin-section.tsx';
import { userTexts as ut } from './user-texts.ts';

/** One fact of the profile: a term and its value (a dt/dd pair). */
function Fact({
  term,
  children,
  hint,
  wide = false,
}: {
  term: string;
  children: ReactNode;
  hint?: string;
  /** Across both columns on a phone (a long value). */
  wide?: boolean;
}) {
  return (
    <Box style={{ minWidth: 0 }} className={wide ? classes.wide : undefined}>
      <Text component="dt" size="xs" c="dimmed" fw={500}>
        {term}
      </Text>
      <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
        {children}
        {hint ? (
          <Text component="span" display="block" size="xs" c="dimmed">
            {hint}
          </Text>
        ) : null}
      </Text>
    </Box>
  );
}

function Instant({ iso }: { iso: string | null }) {
  if (iso === null)
    return (
      <Text span inherit c="dimmed">
        {ut.never}
      </Text>
    );
  return (
    <time dateTime={iso} title={iso}>
      {shortInstant(iso)}
    </time>
  );
}

/** The region "Profile": who they are, how they sign in, and the state of their account. */
export function UserProfile({ user }: { user: AdminUserDetail }) {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ');
  const end = lockEnd(user);
  return (
    <AdminSection title={ut.profile}>
      <SimpleGrid component="dl" cols={2} spacing="md" verticalSpacing="sm" m={0}>
        <Fact term={ut.name} wide>
          {name || (
            <Text span inherit c="dimmed">
              {ut.noName}
            </Text>
          )}
        </Fact>
        <Fact term={ut.email} wide>
          <Group gap={6} component="span" wrap="wrap">
            <span>{user.email}</span>
            <Badge size="xs" variant="light" color={user.emailVerified ? 'green' : 'yellow'} tt="none">
              {user.emailVerified ? ut.verified : ut.notVerified}
            </Badge>
          </Group>
        </Fact>
        <Fact term={ut.created}>
          <Instant iso={user.createdAt} />
        </Fact>
        <Fact term={ut.lastSignIn}>
          <Instant iso={user.lastSignInAt} />
        </Fact>
        <Fact term={ut.secondFactors}>
          <SecondFactorBadges factors={user.twoFactor} />
        </Fact>
        <Fact term={ut.preferredMethod}>{secondFactorLabel(user.preferred2fa ?? 'Email')}</Fact>
        <Fact term={ut.recoveryCodesLeft}>{user.recoveryCodesLeft}</Fact>
        <Fact term={ut.passkeys}>{user.passkeys}</Fact>
        <Fact term={ut.activeSessions}>{user.activeSessions}</Fact>
        <Fact term={ut.failedChecks} hint={ut.failedChecksHint}>
          {user.failedChecks}
        </Fact>
        <Fact term={ut.status} wide>
          <Group gap={6} component="span" wrap="wrap">
            <StatusBadge user={user} />
            {end ? (
              <Text span inherit aria-hidden>
                {end}
              </Text>
            ) : null}
          </Group>
        </Fact>
      </SimpleGrid>
    </AdminSection>
  );
}
