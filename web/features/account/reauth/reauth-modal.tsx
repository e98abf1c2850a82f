import { useState } from 'react';
import {
  Alert,
  Button,
  Group,
  Modal,
  PasswordInput,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { z } from 'zod';
import { currentPasswordField, otpField } from '#common/contract/account.ts';
import { accountPageMessages as pm } from '#common/messages.ts';
import { postReauth } from '#web/api/account/reauth.ts';
import { validateWith } from '#web/forms/schema-validation.ts';
import { useSubmit } from '#web/forms/use-submit.ts';

type Method = 'password' | 'app';

const passwordForm = z.object({ password: currentPasswordField });
const appForm = z.object({ otp: otpField });

interface ReauthModalProps {
  opened: boolean;
  /** Offer the authenticator app as well (the account has a verified app). */
  canUseApp: boolean;
  onConfirmed: () => void;
  onCancel: () => void;
}

/**
 * The re-authentication modal: the password, or a code of the authenticator app, sent to POST /api/account/reauth.
 * A refusal ('That password is not right. Please try again.', 'Failed to validate OTP.', a lockout) stays in the
 * modal so the person can try again or cancel. Its body mounts afresh on each opening, so nothing typed is kept.
 */
export function ReauthModal({ opened, canUseApp, onConfirmed, onCancel }: ReauthModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      title={pm.reauthTitle}
      centered
      closeButtonProps={{ 'aria-label': pm.close }}
    >
      {opened && <ReauthForm canUseApp={canUseApp} onConfirmed={onConfirmed} onCancel={onCancel} />}
    </Modal>
  );
}

function ReauthForm({ canUseApp, onConfirmed, onCancel }: Omit<ReauthModalProps, 'opened'>) {
  const [method, setMethod] = useState<Method>('password');
  const [refusal, setRefusal] = useState<string | null>(null);
  const { submitting, submit } = useSubmit();
  const form = useForm({
    mode: 'controlled',
    initialValues: { password: '', otp: '' },
    validate: (values) =>
      method === 'password'
        ? validateWith(passwordForm)({ password: values.password })
        : validateWith(appForm)({ otp: values.otp }),
  });

  const confirm = form.onSubmit((values) =>
    submit(async () => {
      setRefusal(null);
      const answer = await postReauth(
        method === 'password'
          ? { password: values.password }
          : { otp: values.otp.trim(), selected2fa: 'Totp' },
      );
      if (answer.isSuccess) onConfirmed();
      else setRefusal(answer.message);
    }),
  );

  return (
    <form onSubmit={confirm} noValidate>
      <Stack gap="md">
        <Text size="sm">{pm.reauthIntro}</Text>
        {canUseApp && (
          <SegmentedControl
            fullWidth
            value={method}
            onChange={(value) => {
              setMethod(value === 'app' ? 'app' : 'password');
              setRefusal(null);
              form.clearErrors();
            }}
            data={[
              { value: 'password', label: pm.reauthPassword },
              { value: 'app', label: pm.reauthApp },
            ]}
          />
        )}
        {method === 'password' ? (
          <PasswordInput
            label={pm.reauthPassword}
            autoComplete="current-password"
            data-autofocus
            {...form.getInputProps('password')}
          />
        ) : (
          <TextInput
            label={pm.reauthCode}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            data-autofocus
            {...form.getInputProps('otp')}
          />
        )}
        {refusal && (
          <Alert color="red" role="alert" variant="light">
            {refusal}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={submitting}>
            {pm.cancel}
          </Button>
          <Button type="submit" loading={submitting}>
            {pm.reauthConfirm}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
