import { Button, Group, Stack, Text } from '@mantine/core';
import type { TwoFactorMethod } from '#common/contract/account.ts';
import { securityMessages as sm } from '#common/messages.ts';
import { CodeCountdown } from '#web/ui/one-time-code/code-countdown.tsx';
import { CodeEntry } from '#web/ui/one-time-code/code-entry.tsx';
import { ResendButton } from '#web/ui/one-time-code/resend-button.tsx';

type CodeStepProps = {
  method: Extract<TwoFactorMethod, 'Email' | 'Phone'>;
  /** Where the code went, as the person typed it. */
  target: string;
  onVerify: (code: string) => void;
  verifying: boolean;
  /** The server's answer to the last code, shown under the boxes. */
  error: string | null;
  onResend: () => void;
  resending: boolean;
  lockedUntil: number | null;
  /** When the emailed code stops working (Email only; spec 000 §4: a 15-minute countdown). */
  expiresAt: number | null;
  changeLabel: string;
  onChange: () => void;
  onCancel: () => void;
};

/** The code step of the Email and Phone cards, built from the sign-in's pieces: the six boxes, the emailed code's
 * countdown, resend with its 60-second lock, and a way back to change the address or number. */
export function CodeStep(props: CodeStepProps) {
  return (
    <Stack gap="sm">
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {sm.codeSentTo(props.target)}
      </Text>
      {props.expiresAt !== null && <CodeCountdown expiresAt={props.expiresAt} />}
      <CodeEntry mode="code" onSubmit={props.onVerify} loading={props.verifying} error={props.error} />
      <Group gap="xs" justify="space-between">
        <ResendButton
          method={props.method}
          lockedUntil={props.lockedUntil}
          onResend={props.onResend}
          loading={props.resending}
        />
        <Group gap="xs">
          <Button variant="subtle" onClick={props.onChange}>
            {props.changeLabel}
          </Button>
          <Button variant="subtle" color="gray" onClick={props.onCancel}>
            {sm.cancel}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
