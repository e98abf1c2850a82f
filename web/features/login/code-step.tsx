import { Anchor, Button, Group, Stack } from '@mantine/core';
import { IconFingerprint } from '@tabler/icons-react';
import type { SignInMethod } from '#common/contract/account.ts';
import { loginMessages as lm } from '#common/messages.ts';
import { CodeCountdown } from '#web/ui/one-time-code/code-countdown.tsx';
import { CodeEntry } from '#web/ui/one-time-code/code-entry.tsx';
import { ResendButton } from '#web/ui/one-time-code/resend-button.tsx';

type CodeStepProps = {
  method: SignInMethod;
  /** Changes after every refused code, so the entry starts empty. */
  attempt: number;
  /** When the emailed code expires (Email only), else null. */
  expiresAt: number | null;
  /** Until when resending is locked, else null. */
  lockedUntil: number | null;
  onCode: (code: string) => void;
  onPasskey: () => void;
  onResend: () => void;
  /** Offer 'Use a recovery code' and 'Use another method'. */
  offersRecovery: boolean;
  offersAnotherMethod: boolean;
  onRecovery: () => void;
  onAnotherMethod: () => void;
  onStartOver: () => void;
  verifying: boolean;
  resending: boolean;
};

/** The second step's code (spec 000 §2, §4): six digits (Email with its 15-minute countdown, Phone, the app), a
 * recovery code, or the passkey; resend where there is something to send, locked for 60 s after each send. */
export function CodeStep(props: CodeStepProps) {
  const { method, expiresAt, lockedUntil, verifying, resending } = props;
  return (
    <Stack gap="md">
      {method === 'Passkey' ? (
        <Button
          leftSection={<IconFingerprint size={18} aria-hidden />}
          onClick={props.onPasskey}
          loading={verifying}
        >
          {lm.usePasskey}
        </Button>
      ) : (
        <CodeEntry
          key={`${method}-${props.attempt}`}
          mode={method === 'Recovery' ? 'recovery' : 'code'}
          onSubmit={props.onCode}
          loading={verifying}
        />
      )}
      {(expiresAt !== null || method === 'Email' || method === 'Phone') && (
        <Group justify="space-between" gap="xs" wrap="wrap">
          {expiresAt !== null ? <CodeCountdown expiresAt={expiresAt} /> : <span />}
          <ResendButton
            method={method}
            lockedUntil={lockedUntil}
            onResend={props.onResend}
            loading={resending}
          />
        </Group>
      )}
      <Stack gap={6} align="center">
        {props.offersRecovery && (
          <Anchor component="button" type="button" size="sm" onClick={props.onRecovery}>
            {lm.useRecoveryCode}
          </Anchor>
        )}
        {props.offersAnotherMethod && (
          <Anchor component="button" type="button" size="sm" onClick={props.onAnotherMethod}>
            {lm.useAnotherMethod}
          </Anchor>
        )}
        <Anchor component="button" type="button" size="sm" onClick={props.onStartOver}>
          {lm.backToLogin}
        </Anchor>
      </Stack>
    </Stack>
  );
}
