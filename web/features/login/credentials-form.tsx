import { useCallback } from 'react';
import { Link } from 'react-router';
import { Anchor, Button, Divider, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconFingerprint } from '@tabler/icons-react';
import { loginRequest, type LoginRequest } from '#common/contract/account.ts';
import { loginMessages as lm } from '#common/messages.ts';
import { validateWith } from '#web/forms/schema-validation.ts';
import { HumanCheck } from '#web/ui/human-check.tsx';
import { SocialButtons } from './social-buttons.tsx';

export const SIGNUP_PATH = '/account/signup';
export const FORGOT_PASSWORD_PATH = '/account/forgotPassword';

type CredentialsFormProps = {
  /** A valid request (the contract's loginRequest, trimmed) to send. */
  onSubmit: (request: LoginRequest) => void;
  /** The form does not pass the contract's checks: the page says 'Invalid form... Please try again.'. */
  onInvalid: () => void;
  onPasskey: () => void;
  /** Changes after every refused password: the human check starts over. */
  humanCheckKey: number;
  /** A sign-in is on its way (password or passkey): the buttons wait. */
  submitting: boolean;
  /** The return address, for the social buttons. */
  returnTo: string | null;
};

const validate = validateWith(loginRequest);

/** The first step of the login page (spec 000 §2, §5): username, password, the forgot-password link, the human
 * check, Signup and Login, then the passkey and the social sign-ins. Checked by the contract's loginRequest, so
 * the page and the server say the same words. */
export function CredentialsForm({
  onSubmit,
  onInvalid,
  onPasskey,
  humanCheckKey,
  submitting,
  returnTo,
}: CredentialsFormProps) {
  const form = useForm<LoginRequest>({
    mode: 'controlled',
    initialValues: { username: '', password: '', token: '' },
    validate,
    validateInputOnBlur: ['username', 'password'],
  });
  const { setFieldValue } = form;
  const onHumanCheck = useCallback(
    (payload: string | null) => setFieldValue('token', payload ?? ''),
    [setFieldValue],
  );

  return (
    <Stack gap="md">
      <form
        aria-label={lm.formName}
        noValidate
        onSubmit={form.onSubmit((values) => onSubmit(loginRequest.parse(values)), onInvalid)}
      >
        <Stack gap="sm">
          <TextInput
            label={lm.username}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            withAsterisk
            {...form.getInputProps('username')}
          />
          <Stack gap={4}>
            <PasswordInput
              label={lm.password}
              autoComplete="current-password"
              withAsterisk
              {...form.getInputProps('password')}
            />
            <Anchor component={Link} to={FORGOT_PASSWORD_PATH} size="sm" ta="right">
              {lm.forgotPassword}
            </Anchor>
          </Stack>
          <HumanCheck resetKey={humanCheckKey} onChange={onHumanCheck} />
          <Group grow gap="sm" mt="xs">
            <Button component={Link} to={SIGNUP_PATH} variant="default">
              {lm.signup}
            </Button>
            <Button type="submit" loading={submitting}>
              {lm.login}
            </Button>
          </Group>
        </Stack>
      </form>
      <Divider label={lm.or} labelPosition="center" />
      <Button
        variant="light"
        leftSection={<IconFingerprint size={18} aria-hidden />}
        onClick={onPasskey}
        disabled={submitting}
      >
        {lm.passkey}
      </Button>
      <SocialButtons returnTo={returnTo} />
    </Stack>
  );
}
