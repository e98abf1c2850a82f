import { Button, Group, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDeviceMobileMessage } from '@tabler/icons-react';
import { z } from 'zod';
import { phoneField, type MethodVerified, type UserDetail } from '#common/contract/account.ts';
import { securityMessages as sm } from '#common/messages.ts';
import type { RecentAuthRunner } from '#web/api/account/recent-auth.ts';
import { useSendPhoneCode } from '#web/api/account/send-phone-code.ts';
import { useVerifyPhoneCode } from '#web/api/account/verify-phone-code.ts';
import type { ApiSuccess } from '#web/api/query.ts';
import { validateWith } from '#web/forms/schema-validation.ts';
import { PhoneInput } from '#web/ui/phone-input.tsx';
import { CodeStep } from './code-step.tsx';
import { MethodCard } from './method-card.tsx';
import { isSettingUp } from './method-setup.ts';
import { useSentCodeSetup } from './use-sent-code-setup.ts';

const phoneRequest = z.object({ phone: phoneField });

/** +15551234567 as +1 (555) 123-4567; anything else as it is. */
export function readablePhone(e164: string | null | undefined): string {
  const match = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164 ?? '');
  return match ? `+1 (${match[1]}) ${match[2]}-${match[3]}` : (e164 ?? '');
}

type PhoneCardProps = {
  detail: UserDetail | null;
  preferred: boolean;
  run: RecentAuthRunner;
  onVerified: (answer: ApiSuccess<MethodVerified>) => void;
};

/** The Phone card (spec 000 §2, §4, §5): +1 and the boxes of 3, 3 and 4 digits (phoneField's rules), a code sent
 * by text message, then the six-digit code. */
export function PhoneCard({ detail, preferred, run, onVerified }: PhoneCardProps) {
  const setup = useSentCodeSetup({
    send: useSendPhoneCode(run),
    verify: useVerifyPhoneCode(run),
    onVerified,
    expires: false,
  });
  const verified = detail?.phoneVerified ?? false;

  return (
    <MethodCard
      method="Phone"
      icon={<IconDeviceMobileMessage size={22} />}
      verified={verified}
      verifiedAt={detail?.datePhoneVerified ?? null}
      preferred={preferred}
      settingUp={isSettingUp(setup.state)}
      value={readablePhone(detail?.phone)}
    >
      {setup.state.step === 'value' && (
        <PhoneValueStep
          defaultPhone={detail?.phone ?? ''}
          onSend={setup.sendTo}
          onCancel={setup.cancel}
          sending={setup.sendPending}
        />
      )}
      {setup.state.step === 'code' && (
        <CodeStep
          method="Phone"
          target={readablePhone(setup.state.target)}
          onVerify={setup.check}
          verifying={setup.verifyPending}
          error={setup.verifyError}
          onResend={() => setup.state.step === 'code' && setup.sendTo(setup.state.target)}
          resending={setup.sendPending}
          lockedUntil={setup.lockedUntil}
          expiresAt={null}
          changeLabel={sm.changePhone}
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

/** The number to confirm, in the shared PhoneInput; judged by the contract's phoneField. */
export function PhoneValueStep({
  defaultPhone,
  onSend,
  onCancel,
  sending,
}: {
  defaultPhone: string;
  onSend: (phone: string) => void;
  onCancel: () => void;
  sending: boolean;
}) {
  const form = useForm({
    mode: 'controlled',
    initialValues: { phone: defaultPhone },
    validate: validateWith(phoneRequest),
  });
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) => {
        if (!sending) onSend(values.phone);
      })}
    >
      <Stack gap="sm">
        <PhoneInput
          label={sm.phoneLabel}
          defaultValue={defaultPhone}
          onChange={(phone) => {
            form.setFieldValue('phone', phone);
            form.clearFieldError('phone');
          }}
          error={typeof form.errors.phone === 'string' ? form.errors.phone : null}
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
