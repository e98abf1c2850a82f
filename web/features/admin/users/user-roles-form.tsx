import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, Group, MultiSelect, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { userMessages, type AdminUserDetail } from '#common/contract/admin.ts';
import { adminMessages } from '#common/messages.ts';
import { useRoleList } from '#web/api/admin/roles.ts';
import { useSaveUserRoles } from '#web/api/admin/user-actions.ts';
import { failureMessage } from '#web/api/failure-message.ts';
import { AdminSection } from '#web/features/admin/admin-section.tsx';
import { userTexts as ut } from './user-texts.ts';
import { useNavigationGuard } from '#web/forms/navigation-guard.tsx';

const sameRoles = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id) => b.includes(id));

/** Every role for the options: the list comes 25 at a time, and there are few, so all pages are read at once. */
function useAllRoles() {
  const roles = useRoleList('');
  const { hasNextPage, isFetchingNextPage, fetchNextPage, error } = roles;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const shown = useRef<Error | null>(null);
  useEffect(() => {
    if (!error || shown.current === error) return;
    shown.current = error;
    notifications.show({ color: 'red', message: failureMessage(error, adminMessages.rolesFailed) });
  }, [error]);
  return roles.data?.pages.flatMap((page) => page.results) ?? [];
}

/**
 * The region "Access": the multiselect "Roles" (every role) and "Save roles". Saved, the server's message; refused
 * (the last administrator keeps the Administrator role), its reason in red and the saved roles back in the box.
 */
export function UserRolesForm({ user }: { user: AdminUserDetail }) {
  const allRoles = useAllRoles();
  const save = useSaveUserRoles(user.id);
  const saved = user.roles.map((role) => String(role.Id));
  // null: the box shows the saved roles (and follows them when they change).
  const [draft, setDraft] = useState<string[] | null>(null);
  const value = draft ?? saved;
  const changed = draft !== null && !sameRoles(draft, saved);
  // Unsaved roles hold the page like any pending change ('Cannot switch pages with pending changes.').
  useNavigationGuard(changed);

  // The user's own roles are options even before the list has come (a pill needs its option's label).
  const options = [...allRoles, ...user.roles.filter((own) => !allRoles.some((role) => role.Id === own.Id))]
    .sort((a, b) => a.Id - b.Id)
    .map((role) => ({ value: String(role.Id), label: role.Name }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!changed || save.isPending) return;
    save.mutate(
      { roleIds: value.map(Number) },
      {
        onSuccess: (answer) => {
          notifications.show({ color: 'green', message: answer.message ?? userMessages.rolesSaved });
          setDraft(null);
        },
        onError: (error) => {
          notifications.show({ color: 'red', message: failureMessage(error, ut.rolesFailed) });
          setDraft(null);
        },
      },
    );
  };

  return (
    <AdminSection title={ut.access}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <MultiSelect
            label={ut.roles}
            description={ut.rolesHint}
            placeholder={value.length === 0 ? ut.rolesPlaceholder : undefined}
            data={options}
            value={value}
            onChange={setDraft}
            searchable
            nothingFoundMessage={ut.noRoleMatches}
            hidePickedOptions
            clearable={false}
            comboboxProps={{ withinPortal: true }}
            disabled={save.isPending}
          />
          <Group justify="flex-end" gap="sm">
            {!changed ? (
              <Text size="xs" c="dimmed" mr="auto">
                {ut.rolesUnchanged}
              </Text>
            ) : null}
            <Button type="submit" disabled={!changed} loading={save.isPending}>
              {ut.saveRoles}
            </Button>
          </Group>
        </Stack>
      </form>
    </AdminSection>
  );
}
