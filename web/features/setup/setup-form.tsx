import { useState } from 'react';
import type { ChangeEvent, FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle } from '@tabler/icons-react';
import { setupRequest } from '#common/contract/setup.ts';
import type { SetupRequest } from '#common/contract/setup.ts';
import { formMessages, transportMessages } from '#common/messages.ts';
import { LOGIN_PATH } from '#common/content/site.ts';
import { SETUP_STATUS_KEY, submitSetup } from '#web/features/setup/setup-api.ts';

type Field = 'username' | 'email' | 'password' | 'passwordConfirm';
type Values = Record<Field, string>;

const FIELDS: readonly Field[] = ['username', 'email', 'password', 'passwordConfirm'];
const EMPTY: Values = { username: '', email: '', password: '', passwordConfirm: '' };

/** Checks the form against the shared contract: the parsed request, or the first message of each field. */
export function validateSetup(
  token: string,
  values: Values,
): { request: SetupRequest | null; errors: Partial<Record<Field | 'token', string>> } {
  const result = setupRequest.safeParse({ token, ...values });
  if (result.success) return { request: result.data, errors: {} };
  const errors: Partial<Record<Field | 'token', string>> = {};
  for (const issue of result.error.issues) {
    const key = issue.path[0];
    if (isFormKey(key)) errors[key] ??= issue.message;
  }
  return { request: null, errors };
}

function isFormKey(key: unknown): key is Field | 'token' {
  return key === 'token' || FIELDS.some((field) => field === key);
}

/** The first administrator's form: username, email, password and its confirmation (spec 001 §5 rules). */
export function SetupForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Values>(EMPTY);
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const { request, errors } = validateSetup(token, values);

  const mutation = useMutation({
    mutationFn: submitSetup,
    onSuccess: async (result) => {
      if (!result.isSuccess) {
        setServerError(result.message);
        notifications.show({ color: 'red', message: result.message });
        return;
      }
      notifications.show({ color: 'green', message: result.message ?? 'The administrator was created.' });
      await queryClient.invalidateQueries({ queryKey: SETUP_STATUS_KEY });
      await navigate(LOGIN_PATH);
    },
    onError: (error) => {
      const message = error.message || transportMessages.POST;
      setServerError(message);
      notifications.show({ color: 'red', message });
    },
  });

  // Spec 001 §5: a message shows only once its field is touched or dirty.
  const errorOf = (field: Field) =>
    touched[field] || values[field] !== EMPTY[field] ? errors[field] : undefined;
  const bind = (field: Field) => ({
    value: values[field],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const value = event.currentTarget.value;
      setValues((current) => ({ ...current, [field]: value }));
    },
    onBlur: () => setTouched((current) => ({ ...current, [field]: true })),
    error: errorOf(field),
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (mutation.isPending) return;
    // A whole-form check marks every field as touched.
    setTouched({ username: true, email: true, password: true, passwordConfirm: true });
    if (!request) {
      notifications.show({ color: 'red', message: formMessages.invalidForm });
      return;
    }
    setServerError(null);
    mutation.mutate(request);
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        {errors.token && (
          <Alert color="yellow" icon={<IconAlertTriangle size={18} />}>
            {errors.token}
          </Alert>
        )}
        <TextInput label="Username" autoComplete="username" withAsterisk {...bind('username')} />
        <TextInput label="Email" type="email" autoComplete="email" withAsterisk {...bind('email')} />
        <PasswordInput label="Password" autoComplete="new-password" withAsterisk {...bind('password')} />
        <PasswordInput
          label="Password Confirm"
          autoComplete="new-password"
          withAsterisk
          {...bind('passwordConfirm')}
        />
        {serverError && (
          <Alert color="red" icon={<IconAlertTriangle size={18} />} role="alert">
            {serverError}
          </Alert>
        )}
        <Button type="submit" loading={mutation.isPending} mt="sm" fullWidth>
          Create administrator
        </Button>
      </Stack>
    </form>
  );
}
