import { useEffect, useRef } from 'react';
import type { FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { IconLockPassword } from '@tabler/icons-react';
import { passwordWithConfirm } from '#common/contract/account.ts';
import { accountMessages, formMessages } from '#common/messages.ts';
import { useUpdatePassword } from '#web/api/account/update-password.ts';
import { validateWith } from '#web/forms/schema-validation.ts';
import { useSubmit } from '#web/forms/use-submit.ts';
import { homeOf, UPDATE_PASSWORD_PATH } from '#web/session/landing.ts';
import { safeReturnPath } from '#web/session/safe-return-path.ts';
import { useSession } from '#web/session/session-context.ts';
import { FormCard } from '#web/ui/form-card.tsx';
import { ReauthProvider } from '#web/features/account/reauth/reauth-provider.tsx';
import { useReauth } from '#web/features/account/reauth/use-reauth.ts';
import { failureMessage } from '#web/api/failure-message.ts';
import { NewPasswordInput } from '#web/ui/new-password-input.tsx';
import { useSpecForm } from '#web/forms/use-spec-form.ts';

type UpdatePasswordValues = { password: string; passwordConfirm: string };

const initialValues: UpdatePasswordValues = { password: '', passwordConfirm: '' };
const FIELDS = ['password', 'passwordConfirm'] as const;
const validate = validateWith(passwordWithConfirm);

/** The return address `r` when it is a page of this app other than this one (which would only come back here). */
function returnAddress(raw: string | null): string | null {
  const safe = safeReturnPath(raw);
  return safe && safe.split(/[?#]/)[0] !== UPDATE_PASSWORD_PATH ? safe : null;
}

/**
 * /account/updatePassword?expired=true&r=… (spec 001 §2, §4, §7, §8), for a signed-in person: a new password and its
 * confirmation. `expired=true` warns first. Success goes to `r` when it is safe, else administrators to the admin
 * area and others to their account. The server asks for a recent sign-in (a forgot-password sign-in is one); when
 * the last one is older than its window, the page asks for the current password (or an app code) and tries again.
 */
export function UpdatePasswordPage() {
  const { verification } = useSession();
  return (
    <ReauthProvider canUseApp={verification?.user.user_Details[0]?.totpVerified ?? false}>
      <UpdatePasswordForm />
    </ReauthProvider>
  );
}

function UpdatePasswordForm() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const { verification, reverify } = useSession();
  const updatePassword = useUpdatePassword(useReauth());
  const { submitting, submit } = useSubmit();
  const { form, field, checkAll } = useSpecForm({ initialValues, validate, fields: FIELDS });
  const expired = params.get('expired') === 'true';

  // Once per visit, not again when React runs the effect twice in development.
  const warned = useRef(false);
  useEffect(() => {
    if (!expired || warned.current) return;
    warned.current = true;
    notifications.show({ color: 'yellow', message: accountMessages.passwordExpired });
  }, [expired]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!checkAll()) {
      notifications.show({ color: 'red', message: formMessages.invalidForm });
      return;
    }
    const request = passwordWithConfirm.parse(form.getValues());
    void submit(async () => {
      try {
        const answer = await updatePassword.mutateAsync(request);
        if (answer.message) notifications.show({ color: 'green', message: answer.message });
      } catch (error) {
        notifications.show({
          color: 'red',
          message: failureMessage(error, accountMessages.updatePasswordFailed),
        });
        return;
      }
      // The stored session still says the password must change: verify again to learn it no longer does.
      if (!(await reverify())) return;
      const target = returnAddress(params.get('r')) ?? (verification ? homeOf(verification) : '/account');
      // Spec 001 §4: the databases are loaded again after a password update.
      await queryClient.invalidateQueries();
      await navigate(target, { replace: true });
    });
  };

  const username = verification?.user.username;
  return (
    <FormCard
      icon={<IconLockPassword size={26} />}
      title="Update your password"
      intro={
        username
          ? `Choose a new password for ${username}. Other sessions of the account are signed out.`
          : 'Choose a new password. Other sessions of the account are signed out.'
      }
    >
      <form onSubmit={onSubmit} noValidate aria-label="Update password">
        <Stack gap="sm">
          {/* Lets a password manager file the new password under the right account. */}
          <input type="text" name="username" autoComplete="username" value={username ?? ''} readOnly hidden />
          <NewPasswordInput label="Password" withAsterisk withRules {...field('password')} />
          <NewPasswordInput label="Password Confirm" withAsterisk {...field('passwordConfirm')} />
          <Button type="submit" loading={submitting} fullWidth mt="xs">
            Update Password
          </Button>
        </Stack>
      </form>
    </FormCard>
  );
}
