import { Button, Group, Stack, TextInput } from '@mantine/core';
import { IconMail } from '@tabler/icons-react';
import { useForm } from '@mantine/form';
import { z } from 'zod';
import { emailField, type MethodVerified, type UserDetail } from '#common/contract/account.ts';
import { securityMessages as sm } from '#common/messages.ts';
import type { RecentAuthRunner } from '#web/api/account/recent-auth.ts';
import { useSendEmailCode } from '#web/api/account/send-email-code.ts';
import { useVerifyEmailCode } from '#web/api/account/verify-email-code.ts';
import type { ApiSuccess } from '#web/api/query.ts';
import { validateWith } from '#web/forms/schema-validation.ts';
import { CodeStep } from './code-step.tsx';
import { MethodCard } from './method-card.tsx';
import { isSettingUp } from './method-setup.ts';
import { useSentCodeSetup } from './use-sent-code-setup.ts';

const emailRequest = z.object({ email: emailField });

type EmailCardProps = {
  detail: UserDetail | null;
  preferred: boolean;
  run: RecentAuthRunner;
  onVerified: (answer: ApiSuccess<MethodVerified>) => void;
};

/** The Email card (spec 000 §2, §4, §5): the address (the profile email to start with; emailField's rules), a code
 * sent to it, then the six-digit code. */
export function EmailCard({ detail, preferred, run, onVerified }: EmailCardProps) {
  const setup = useSentCodeSetup({
    send: useSendEmailCode(run),
    verify: useVerifyEmailCode(run),
    onVerified,
    expires: true,
  });
  const verified = detail?.emailVerified ?? false;

  return (
    <MethodCard
      method="Email"
      icon={<IconMail size={22} />}
      verified={verified}
      verifiedAt={detail?.dateEmailVerified ?? null}
      preferred={preferred}
      settingUp={isSettingUp(setup.state)}
      value={detail?.email}
    >
      {setup.state.step === 'value' && (
        <EmailValueStep
          defaultEmail={detail?.email ?? ''}
          onSend={setup.sendTo}
          onCancel={setup.cancel}
          sending={setup.sendPending}
        />
      )}
      {setup.state.step === 'code' && (
        <CodeStep
          method="Email"
          target={setup.state.target}
          onVerify={setup.check}
          verifying={setup.verifyPending}
          error={setup.verifyError}
          onResend={() => setup.state.step === 'code' && setup.sendTo(setup.state.target)}
          resending={setup.sendPending}
          lockedUntil={setup.lockedUntil}
          expiresAt={setup.expiresAt}
          changeLabel={sm.changeEmail}
          onChange={setup.change}
          onCancel={setup.cancel}
        />
      )}
      {!isSettingUp(setup.state) && (
        <Button variant={verified ? 'default' : 'filled'} onClick={setup.start}>
          {verified ? sm.redo : sm.setUp}
        </Button>
      )}
    </MethodCard>
  );
}

/** The address to confirm: checked by the contract's emailField (through @mantine/form), so the words match the
 * server's. */
export function EmailValueStep({
  defaultEmail,
  onSend,
  onCancel,
  sending,
}: {
  defaultEmail: string;
  onSend: (email: string) => void;
  onCancel: () => void;
  sending: boolean;
}) {
  const form = useForm({
    mode: 'controlled',
    initialValues: { email: defaultEmail },
    validate: validateWith(emailRequest),
    validateInputOnChange: false,
  });
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) => {
        if (!sending) onSend(values.email.trim());
      })}
    >
      <Stack gap="sm">
        <TextInput
          label={sm.emailLabel}
          type="email"
          autoComplete="email"
          autoFocus
          {...form.getInputProps('email')}
        />
        <Group gap="xs">
          <Button type="submit" loading={sending}>
            {sm.sendCode}
          </Button>
          <Button variant="subtle" color="gray" onClick={onCancel}>
            {sm.cancel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
