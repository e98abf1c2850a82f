import { Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { Link } from 'react-router';
import { z } from 'zod';
import { firstNameField, lastNameField, type User, type UserImage } from '#common/contract/account.ts';
import { accountMessages as m, accountPageMessages as pm } from '#common/messages.ts';
import { useUpdateAccount } from '#web/api/account/account.ts';
import { usePendingChanges } from '#web/forms/pending-changes.ts';
import { validateWith } from '#web/forms/schema-validation.ts';
import { useSubmit } from '#web/forms/use-submit.ts';
import { AccountRoles } from './account-roles.tsx';
import { ProfileImageField } from './profile-image-field.tsx';

/** The names as the contract checks them (common/contract/account.ts): at most 50 characters each. */
const detailsSchema = z.object({ firstName: firstNameField, lastName: lastNameField });

interface DetailsValues {
  firstName: string;
  lastName: string;
  image: UserImage | null;
}

function valuesOf(user: User): DetailsValues {
  const detail = user.user_Details[0];
  return {
    firstName: detail?.firstName ?? '',
    lastName: detail?.lastName ?? '',
    image: user.user_Images[0] ?? null,
  };
}

function sameImage(a: UserImage | null, b: UserImage | null): boolean {
  return a === b || (a !== null && b !== null && a.image === b.image && a.fileType === b.fileType);
}

function initialsOf(user: User, values: DetailsValues): string {
  const letters = `${values.firstName.trim().charAt(0)}${values.lastName.trim().charAt(0)}`;
  return (letters || user.username.charAt(0)).toUpperCase();
}

/**
 * Account Details (spec 000 §2): profile image, username, email (read-only), the password (changed on its own page),
 * first and last name and the roles. Save sends the names and, when changed, the image (POST /api/account) with
 * 'Successfully updated user.' or 'Failed to update user.' and the server's reason. While anything is unsaved, leaving
 * the page is blocked with 'Cannot switch pages with pending changes.'.
 */
export function AccountDetailsCard({ user }: { user: User }) {
  const update = useUpdateAccount();
  const { submitting, submit } = useSubmit();
  const form = useForm<DetailsValues>({
    mode: 'controlled',
    initialValues: valuesOf(user),
    validateInputOnChange: ['firstName', 'lastName'],
    validate: (values) =>
      validateWith(detailsSchema)({ firstName: values.firstName, lastName: values.lastName }),
  });
  const values = form.getValues();
  const initial = form.getInitialValues();
  const imageChanged = !sameImage(values.image, initial.image);
  const pending =
    values.firstName !== initial.firstName || values.lastName !== initial.lastName || imageChanged;
  usePendingChanges(pending);

  const save = form.onSubmit((submitted) =>
    submit(async () => {
      try {
        const answer = await update.mutateAsync({
          user_Details: [{ firstName: submitted.firstName.trim(), lastName: submitted.lastName.trim() }],
          ...(imageChanged ? { user_Images: submitted.image ? [submitted.image] : [] } : {}),
        });
        const saved = valuesOf(answer.data);
        form.setInitialValues(saved);
        form.setValues(saved);
        form.resetDirty(saved);
        notifications.show({ color: 'green', message: m.userUpdated });
      } catch (error) {
        notifications.show({
          color: 'red',
          title: m.userUpdateFailed,
          message: error instanceof Error && error.message !== m.userUpdateFailed ? error.message : undefined,
        });
      }
    }),
  );

  const email = user.user_Details[0]?.email ?? '';
  return (
    <Paper
      component="section"
      aria-labelledby="account-details-title"
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'xl' }}
    >
      <form onSubmit={save} noValidate>
        <Stack gap="lg">
          <Title order={2} id="account-details-title" fz="h3">
            {pm.detailsTitle}
          </Title>
          <ProfileImageField
            value={values.image}
            changed={imageChanged}
            initials={initialsOf(user, values)}
            onChange={(image) => form.setFieldValue('image', image)}
          />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="md">
            <TextInput label={pm.username} value={user.username} readOnly autoComplete="username" />
            <TextInput
              label={pm.email}
              value={email}
              readOnly
              type="email"
              description={pm.emailReadOnly}
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              autoComplete="email"
            />
            <TextInput label={pm.firstName} autoComplete="given-name" {...form.getInputProps('firstName')} />
            <TextInput label={pm.lastName} autoComplete="family-name" {...form.getInputProps('lastName')} />
          </SimpleGrid>
          <Group align="flex-end" gap="sm" wrap="nowrap">
            <TextInput
              label={pm.password}
              type="password"
              value="password"
              readOnly
              tabIndex={-1}
              style={{ flex: 1, minWidth: 0 }}
            />
            <Button component={Link} to="/account/updatePassword" variant="default">
              {pm.changePassword}
            </Button>
          </Group>
          <AccountRoles />
          <Group justify="space-between" gap="sm">
            <Text size="sm" c="dimmed" aria-live="polite">
              {pending ? pm.pendingChanges : ''}
            </Text>
            <Group gap="sm">
              <Button
                variant="default"
                disabled={!pending || submitting}
                onClick={() => {
                  form.reset();
                }}
              >
                {pm.discard}
              </Button>
              <Button type="submit" loading={submitting} disabled={!pending}>
                {pm.save}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
