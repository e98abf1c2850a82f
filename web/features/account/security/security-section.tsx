import { useCallback, useState } from 'react';
import { Alert, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { TwoFactorMethod, User } from '#common/contract/account.ts';
import { securityMessages as sm } from '#common/messages.ts';
import { useAccount } from '#web/api/account/account.ts';
import { useReauth } from '#web/features/account/reauth/use-reauth.ts';
import { AppCard } from './app-card.tsx';
import { EmailCard } from './email-card.tsx';
import { PasskeysCard } from './passkeys-card.tsx';
import { PhoneCard } from './phone-card.tsx';
import { RecoveryCodesCard } from './recovery-codes-card.tsx';
import { RecoveryCodesModal } from './recovery-codes-modal.tsx';
import classes from './security-section.module.css';
import { useMethodVerified } from './use-method-verified.ts';

/** The method the person prefers: the detail's own choice, else the account's (which names one of the three only
 * once something is verified). */
export function preferredMethodOf(user: User): TwoFactorMethod | null {
  const chosen = user.user_Details[0]?.preferred2fa ?? user.preferred2fa;
  return chosen === 'Email' || chosen === 'Phone' || chosen === 'Totp' ? chosen : null;
}

/**
 * The account page's Security section (spec 000 §2, §4): the Email, Phone and App cards (set up, verify with a
 * code, redo, make preferred), passkeys, and recovery codes, shown once in a modal when issued. Calls that need a
 * recent sign-in go through useReauth's `run` (the page's ReauthProvider asks for the password when needed).
 * One column on phones and in a narrow column, a grid where the section is wide.
 */
export function SecuritySection() {
  const account = useAccount();
  const run = useReauth();
  const [codes, setCodes] = useState<string[] | null>(null);
  const showCodes = useCallback((issued: string[]) => setCodes(issued), []);
  const onVerified = useMethodVerified(showCodes);

  const user = account.data;
  const detail = user?.user_Details[0] ?? null;
  const preferred = user ? preferredMethodOf(user) : null;
  const verifiedAny = Boolean(
    detail && (detail.emailVerified || detail.phoneVerified || detail.totpVerified),
  );
  const isPreferred = (method: TwoFactorMethod) => preferred === method;

  return (
    <Stack component="section" aria-labelledby="security-title" gap="md">
      <Stack gap={4}>
        <Title order={2} id="security-title">
          {sm.title}
        </Title>
        <Text size="sm" c="dimmed">
          {sm.intro}
        </Text>
      </Stack>
      {account.isPending && <Loader size="sm" role="status" aria-label={sm.title} />}
      {account.isError && (
        <Alert color="red" variant="light">
          {account.error.message}
        </Alert>
      )}
      {user && (
        <>
          {/* Container queries: the page decides how wide the section is (a column beside Account Details on a
              laptop), so the cards follow the section's width, not the window's. */}
          <SimpleGrid
            type="container"
            cols={{ base: 1, '52rem': 3 }}
            spacing="md"
            className={classes.methods}
          >
            <EmailCard detail={detail} preferred={isPreferred('Email')} run={run} onVerified={onVerified} />
            <PhoneCard detail={detail} preferred={isPreferred('Phone')} run={run} onVerified={onVerified} />
            <AppCard detail={detail} preferred={isPreferred('Totp')} run={run} onVerified={onVerified} />
          </SimpleGrid>
          <SimpleGrid type="container" cols={{ base: 1, '36rem': 2 }} spacing="md">
            <PasskeysCard run={run} />
            <RecoveryCodesCard
              left={user.recoveryCodesLeft}
              hasMethod={verifiedAny}
              run={run}
              onIssued={showCodes}
            />
          </SimpleGrid>
          <RecoveryCodesModal codes={codes} username={user.username} onClose={() => setCodes(null)} />
        </>
      )}
    </Stack>
  );
}
