import { useCallback } from 'react';
import type { FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Anchor, Button, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconUserPlus } from '@tabler/icons-react';
import { passwordWithConfirm, signupRequest } from '#common/contract/account.ts';
import { accountMessages, formMessages } from '#common/messages.ts';
import { useSignup } from '#web/api/account/signup.ts';
import { LOGIN_PATH } from '#common/content/site.ts';
import { validateWith } from '#web/forms/schema-validation.ts';
import { useSubmit } from '#web/forms/use-submit.ts';
import { FormCard } from '#web/ui/form-card.tsx';
import { failureMessage } from '#web/api/failure-message.ts';
import { NewPasswordInput } from '#web/ui/new-password-input.tsx';
import { useHumanCheckToken } from '#web/forms/use-human-check-token.ts';
import { useSpecForm } from '#web/forms/use-spec-form.ts';
import { HumanCheck } from '#web/ui/human-check.tsx';

/** The form's values in the request's own shape (spec 001 §7), so the contract's schema checks them as they are. */
type SignupValues = {
  user: { username: string; user_Details: { email: string; firstName: string; lastName: string }[] };
  password: string;
  passwordConfirm: string;
  token: string;
};

const initialValues: SignupValues = {
  user: { username: '', user_Details: [{ email: '', firstName: '', lastName: '' }] },
  password: '',
  passwordConfirm: '',
  token: '',
};

const USERNAME = 'user.username';
const EMAIL = 'user.user_Details.0.email';
const FIRST_NAME = 'user.user_Details.0.firstName';
const LAST_NAME = 'user.user_Details.0.lastName';
const FIELDS = [USERNAME, EMAIL, FIRST_NAME, LAST_NAME, 'password', 'passwordConfirm'] as const;

const checkRequest = validateWith(signupRequest);
// The request's confirmation is optional (the spec's body has none); the form's is required (spec 001 §5).
const checkConfirmation = validateWith(passwordWithConfirm);
const validate = (values: SignupValues) => ({ ...checkRequest(values), ...checkConfirmation(values) });

/**
 * /account/signup (spec 001 §2, §4, §5, §7, §8): a new account. Success goes to the login page's code entry with the
 * server's `pu` (the code confirms the email and signs in); a failure toasts and resets the human check, whose
 * solution works only once.
 */
export function SignupPage() {
  const navigate = useNavigate();
  const signup = useSignup();
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
    const request = signupRequest.parse(form.getValues());
    void submit(async () => {
      try {
        const answer = await signup.mutateAsync(request);
        if (answer.message) notifications.show({ color: 'green', message: answer.message });
        await navigate(`${LOGIN_PATH}?${new URLSearchParams({ pu: answer.data }).toString()}`);
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
      icon={<IconUserPlus size={26} />}
      title="Create your account"
      intro="Every account signs in with a second step: we email you a six-digit code to confirm your address."
      footer={
        <>
          Already have an account?{' '}
          <Anchor component={Link} to={LOGIN_PATH} fw={600}>
            Login
          </Anchor>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate aria-label="Sign up">
        <Stack gap="sm">
          <TextInput label="Username" autoComplete="username" withAsterisk {...field(USERNAME)} />
          <TextInput label="Email" type="email" autoComplete="email" withAsterisk {...field(EMAIL)} />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput label="First Name" autoComplete="given-name" {...field(FIRST_NAME)} />
            <TextInput label="Last Name" autoComplete="family-name" {...field(LAST_NAME)} />
          </SimpleGrid>
          <NewPasswordInput label="Password" withAsterisk withRules {...field('password')} />
          <NewPasswordInput label="Password Confirm" withAsterisk {...field('passwordConfirm')} />
          <HumanCheck resetKey={humanCheck.resetKey} onChange={humanCheck.onChange} />
          <Button type="submit" loading={submitting} fullWidth mt="xs">
            Sign Up
          </Button>
        </Stack>
      </form>
    </FormCard>
  );
}
