import { useCallback } from 'react';
import type { FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Anchor, Button, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconKey } from '@tabler/icons-react';
import { forgotPasswordRequest } from '#common/contract/account.ts';
import { accountMessages, formMessages } from '#common/messages.ts';
import { useForgotPassword } from '#web/api/account/forgot-password.ts';
import { LOGIN_PATH } from '#common/content/site.ts';
import { validateWith } from '#web/forms/schema-validation.ts';
import { useSubmit } from '#web/forms/use-submit.ts';
import { UPDATE_PASSWORD_PATH } from '#web/session/landing.ts';
import { HumanCheck } from '#web/ui/human-check.tsx';
import { FormCard } from '#web/ui/form-card.tsx';
import { failureMessage } from '#web/api/failure-message.ts';
import { useHumanCheckToken } from '#web/forms/use-human-check-token.ts';
import { useSpecForm } from '#web/forms/use-spec-form.ts';

type ForgotPasswordValues = { username: string; token: string };

const initialValues: ForgotPasswordValues = { username: '', token: '' };
const FIELDS = ['username'] as const;
const validate = validateWith(forgotPasswordRequest);

/** Where the emailed code leads: the login page's code entry, then the update-password page (spec 001 §4). */
function forgotPasswordLanding(pu: string): string {
  return `${LOGIN_PATH}?${new URLSearchParams({ pu, r: UPDATE_PASSWORD_PATH }).toString()}`;
}

/**
 * /account/forgotPassword (spec 001 §2, §4, §7, §8): a username and the human check send a code to the account's
 * email, then the login page's code entry signs in and goes on to choose a new password. The server answers an
 * unknown username exactly as a known one, so this page says the same either way.
 */
export function ForgotPasswordPage() {
  const navigate = useNavigate();
  const forgotPassword = useForgotPassword();
  const { submitting, submit } = useSubmit();
  const { form, field, checkAll } = useSpecForm({ initialValues, validate, fields: FIELDS });
  const { setFieldValue } = form;
  const setToken = useCallback((token: string) => setFieldValue('token', token), [setFieldValue]);
  const humanCheck = useHumanCheckToken(setToken);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!checkAll()) {
      notifications.show({ color: 'red', message: formMessages.invalidForm });
      return;
    }
    const request = forgotPasswordRequest.parse(form.getValues());
    void submit(async () => {
      try {
        const answer = await forgotPassword.mutateAsync(request);
        if (answer.message) notifications.show({ color: 'green', message: answer.message });
        await navigate(forgotPasswordLanding(answer.data));
      } catch (error) {
        notifications.show({
          color: 'red',
          message: failureMessage(error, accountMessages.forgotPasswordFailed),
        });
        humanCheck.reset();
      }
    });
  };

  return (
    <FormCard
      icon={<IconKey size={26} />}
      title="Forgot your password?"
      intro="Enter your username. If the account exists, we email a code to its address; sign in with it and choose a new password."
      footer={
        <>
          Remembered it?{' '}
          <Anchor component={Link} to={LOGIN_PATH} fw={600}>
            Back to Login
          </Anchor>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate aria-label="Forgot password">
        <Stack gap="sm">
          <TextInput label="Username" autoComplete="username" withAsterisk {...field('username')} />
          <HumanCheck resetKey={humanCheck.resetKey} onChange={humanCheck.onChange} />
          <Button type="submit" loading={submitting} fullWidth mt="xs">
            Send Code
          </Button>
        </Stack>
      </form>
    </FormCard>
  );
}
