import { useId, useState, type ReactNode, type RefObject } from 'react';
import {
  Badge,
  Button,
  Divider,
  Group,
  Loader,
  Modal,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconDeviceFloppy, IconArrowBackUp, IconTrash, IconUsersGroup } from '@tabler/icons-react';
import { MOBILE_BREAKPOINT_PX, MODAL_FADE_MS } from '#common/limits.ts';
import { browserMessages } from '#common/messages.ts';
import type { Role } from '#common/contract/admin.ts';
import type { AdminTable } from '#web/api/admin/tables.ts';
import { LinksSection } from './links-section.tsx';
import { PermissionsSection } from './permissions-section.tsx';
import { isDeletable, nameError, roleProblems, type RoleProblems } from './role-draft.ts';
import { UsersSection } from './users-section.tsx';
import type { RoleEditor } from './use-role-editor.ts';
import classes from './roles.module.css';

export interface RoleDetailsProps {
  editor: RoleEditor;
  tables: AdminTable[] | undefined;
  /** The card's heading, focused on phones after a role is chosen from the list above. */
  headingRef?: RefObject<HTMLHeadingElement | null>;
}

/**
 * The role-details card (spec 000 §2, §4, §5): the name, the links with their coverage, the permissions, the users,
 * and a footer with Save, Discard and (for roles above Id 3) Delete. While the draft differs from the saved role
 * the footer shows 'You have pending changes... '.
 */
export function RoleDetails({ editor, tables, headingRef }: RoleDetailsProps) {
  const titleId = useId();
  const { draft } = editor;

  const header = (
    <Title order={2} fz="h4" id={titleId} ref={headingRef} tabIndex={-1}>
      Role details
    </Title>
  );

  if (draft === null) {
    return (
      <Paper withBorder radius="md" p="lg" component="section" aria-labelledby={titleId}>
        {header}
        {editor.loading ? (
          <Group gap="xs" mt="md">
            <Loader size="sm" role="status" aria-label="Loading the role" />
            <Text size="sm" c="dimmed">
              Reading the role…
            </Text>
          </Group>
        ) : (
          <Stack align="center" gap="xs" py="xl">
            <IconUsersGroup size={40} aria-hidden="true" color="var(--mantine-color-dimmed)" />
            <Text size="sm" c="dimmed" ta="center">
              {editor.loadError ?? 'Choose a role from the list, or add one with Add Role.'}
            </Text>
          </Stack>
        )}
      </Paper>
    );
  }

  // Keyed by the role: another role starts with no message shown.
  return (
    <RoleForm
      key={draft.Id}
      editor={editor}
      draft={draft}
      tables={tables}
      titleId={titleId}
      header={header}
    />
  );
}

function RoleForm({
  editor,
  draft,
  tables,
  titleId,
  header,
}: {
  editor: RoleEditor;
  draft: Role;
  tables: AdminTable[] | undefined;
  titleId: string;
  header: ReactNode;
}) {
  const { saved, pending } = editor;
  const [nameTouched, setNameTouched] = useState(false);
  const [problems, setProblems] = useState<RoleProblems>({});
  const [confirming, setConfirming] = useState(false);
  // On a phone the footer's three buttons fit one row without their icons.
  const roomy = useMediaQuery(`(min-width: ${MOBILE_BREAKPOINT_PX}px)`, true);
  const icon = (element: ReactNode) => (roomy ? element : undefined);
  const shownNameError = nameTouched || problems.name ? nameError(draft.Name) : null;
  const change = (next: Role) => {
    editor.change(next);
    if (Object.keys(problems).length > 0) setProblems(roleProblems(next));
  };

  const save = async () => {
    const found = roleProblems(draft);
    setProblems(found);
    setNameTouched(true);
    const first = found.name ?? found.links ?? found.permissions ?? found.users;
    if (first !== undefined) {
      notifications.show({ color: 'red', message: first });
      return;
    }
    await editor.save();
  };

  const removingId = (list: string) =>
    editor.removing?.startsWith(`${list}:`) ? Number(editor.removing.slice(list.length + 1)) : null;

  return (
    <Paper withBorder radius="md" px="lg" pt="lg" component="section" aria-labelledby={titleId}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (pending) void save();
        }}
      >
        <Stack gap="lg">
          <Group justify="space-between" gap="xs" align="flex-start">
            {header}
            <Group gap={6}>
              <Badge variant="outline" color="gray">
                {draft.Id === 0 ? 'New role' : `Id ${draft.Id}`}
              </Badge>
              {draft.IsBuiltIn && (
                <Badge variant="light" color="gray">
                  Built-in
                </Badge>
              )}
              {draft.IsAdmin && (
                <Badge variant="light" color="grape">
                  Admin
                </Badge>
              )}
            </Group>
          </Group>
          <TextInput
            label="Role name"
            description="Letters, digits, spaces, _ and -"
            value={draft.Name}
            onChange={(event) => {
              editor.change({ ...draft, Name: event.currentTarget.value });
              setNameTouched(true);
            }}
            onBlur={() => setNameTouched(true)}
            error={shownNameError}
            withAsterisk
            autoComplete="off"
            maw={480}
            data-autofocus={draft.Id === 0 || undefined}
          />
        </Stack>
      </form>
      <Stack gap="lg" mt="lg">
        <Divider />
        <LinksSection
          draft={draft}
          tables={tables}
          onChange={change}
          onRemove={(index) => editor.remove('Role_Links', index)}
          removingId={removingId('Role_Links')}
          problem={problems.links}
        />
        <Divider />
        <PermissionsSection
          draft={draft}
          tables={tables}
          onChange={change}
          onRemove={(index) => editor.remove('Role_Permissions', index)}
          removingId={removingId('Role_Permissions')}
          problem={problems.permissions}
        />
        <Divider />
        <UsersSection
          draft={draft}
          onChange={change}
          onRemove={(index) => editor.remove('User_Roles', index)}
          removingId={removingId('User_Roles')}
          problem={problems.users}
        />
      </Stack>
      <div className={classes.footer} style={{ marginTop: 'var(--mantine-spacing-lg)' }}>
        {pending && (
          <Text size="sm" fw={500} role="status" mb="xs">
            {browserMessages.pendingChanges}
          </Text>
        )}
        <Group gap="xs" justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            <Button
              leftSection={icon(<IconDeviceFloppy size={16} aria-hidden="true" />)}
              disabled={!pending}
              loading={editor.saving}
              onClick={() => void save()}
            >
              Save
            </Button>
            <Button
              variant="default"
              leftSection={icon(<IconArrowBackUp size={16} aria-hidden="true" />)}
              disabled={!pending || editor.saving}
              onClick={() => {
                editor.discard();
                setProblems({});
                setNameTouched(false);
              }}
            >
              Discard
            </Button>
          </Group>
          {isDeletable(draft) && (
            <Button
              color="red"
              variant="light"
              leftSection={icon(<IconTrash size={16} aria-hidden="true" />)}
              onClick={() => {
                if (editor.askDelete()) setConfirming(true);
              }}
            >
              Delete
            </Button>
          )}
        </Group>
      </div>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title="Delete Role Confirmation"
        centered
        size="sm"
        transitionProps={{ transition: 'fade', duration: MODAL_FADE_MS }}
        closeButtonProps={{ 'aria-label': 'Close' }}
        styles={{ title: { fontWeight: 700 } }}
      >
        <Text size="sm">
          Are you sure you want to delete the role {saved?.Name ?? draft.Name}? This can NOT be undone.
        </Text>
        <Group justify="flex-end" gap="sm" mt="lg">
          <Button variant="default" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button
            color="red"
            loading={editor.deleting}
            onClick={() => {
              void editor.confirmDelete().then(() => setConfirming(false));
            }}
          >
            Delete
          </Button>
        </Group>
      </Modal>
    </Paper>
  );
}
