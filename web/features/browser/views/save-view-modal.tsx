import { useState, type FormEvent } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Button, Group, Modal, MultiSelect, Radio, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { viewSaveForm, type SavedView, type ViewSharing } from '#common/contract/views.ts';
import { useRoles } from '#web/api/account/roles.ts';
import { roleListQueryOptions } from '#web/api/admin/roles.ts';
import { failureMessage } from '#web/api/failure-message.ts';
import { useSaveView } from '#web/api/views/save-view.ts';
import { validateWith } from '#web/forms/schema-validation.ts';
import { useSpecForm } from '#web/forms/use-spec-form.ts';
import { useSubmit } from '#web/forms/use-submit.ts';
import { useSession } from '#web/session/session-context.ts';
import type { TableRef } from '#web/api/sql/paths.ts';
import { viewsTexts } from './views-texts.ts';
import { viewInputOf, type ViewState } from './view-state.ts';

const FIELDS = ['name'] as const;
const validate = validateWith(viewSaveForm);
type SharingKind = 'private' | 'everyone' | 'roles';

/** The roles this person may share with: their own, or every role for an administrator. */
function useShareableRoles(isAdmin: boolean): { value: string; label: string }[] {
  const own = useRoles();
  // Only an administrator may list every role (GET /api/admin/roles); the first 25 by Id, searchable among those.
  const all = useInfiniteQuery({ ...roleListQueryOptions(''), enabled: isAdmin });
  const roles = isAdmin ? (all.data?.pages.flatMap((page) => page.results) ?? []) : (own.data ?? []);
  return roles.map((role) => ({ value: String(role.Id), label: role.Name }));
}

export interface SaveViewModalProps {
  opened: boolean;
  onClose: () => void;
  table: TableRef;
  state: ViewState;
  /** The view to change (Save, Share), or null for a new one (Save as). */
  view: SavedView | null;
  onSaved: (view: SavedView) => void;
}

/** Saves the browser's columns, sort, filter and page size as a view: its name and who may open it. */
export function SaveViewModal({ opened, onClose, table, state, view, onSaved }: SaveViewModalProps) {
  const title = view ? `Save the view “${view.name}”` : 'Save as a new view';
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size="md"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {opened && <SaveViewForm table={table} state={state} view={view} onSaved={onSaved} onClose={onClose} />}
    </Modal>
  );
}

function SaveViewForm({ table, state, view, onSaved, onClose }: Omit<SaveViewModalProps, 'opened'>) {
  const session = useSession();
  const isAdmin = session.verification?.user.isAdmin ?? false;
  const roles = useShareableRoles(isAdmin);
  const save = useSaveView(table);
  const { submitting, submit } = useSubmit();
  const { form, field, checkAll } = useSpecForm({
    initialValues: { name: view?.name ?? '' },
    validate,
    fields: FIELDS,
  });
  const shared = view?.shared ?? 'private';
  const [kind, setKind] = useState<SharingKind>(typeof shared === 'string' ? shared : 'roles');
  const [roleIds, setRoleIds] = useState<string[]>(
    typeof shared === 'object' ? shared.roleIds.map(String) : [],
  );
  const [rolesError, setRolesError] = useState<string | null>(null);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const rolesMissing = kind === 'roles' && roleIds.length === 0;
    setRolesError(rolesMissing ? viewsTexts.noRoles : null);
    if (!checkAll() || rolesMissing) return;
    const { name } = viewSaveForm.parse(form.getValues());
    const sharing: ViewSharing = kind === 'roles' ? { roleIds: roleIds.map(Number) } : kind;
    void submit(async () => {
      try {
        const result = await save.mutateAsync(
          viewInputOf(state, { id: view?.Id ?? 0, name, shared: sharing }),
        );
        notifications.show({ color: 'green', message: viewsTexts.saved(result.data.name) });
        onSaved(result.data);
        onClose();
      } catch (error) {
        // The form stays as it was: nothing typed is lost.
        notifications.show({ color: 'red', message: failureMessage(error, viewsTexts.saveFailed) });
      }
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Save view">
      <Stack gap="md">
        <TextInput label="Name" withAsterisk data-autofocus {...field('name')} />
        <Radio.Group label="Who can open it" value={kind} onChange={(value) => setKind(value as SharingKind)}>
          <Stack gap={8} mt={6}>
            <Radio value="private" label="Only me" />
            <Radio value="everyone" label="Everyone who can read this table" />
            <Radio value="roles" label="Members of some roles" />
          </Stack>
        </Radio.Group>
        {kind === 'roles' && (
          <MultiSelect
            label="Roles"
            description={isAdmin ? viewsTexts.adminRolesHint : viewsTexts.rolesHint}
            data={roles}
            value={roleIds}
            onChange={setRoleIds}
            searchable
            nothingFoundMessage="No role by that name"
            error={rolesError}
            comboboxProps={{ withinPortal: true }}
          />
        )}
        <Text size="xs" c="dimmed">
          A view keeps the columns, their order and widths, the sort, the filter and the page size. Everyone
          who opens it sees only the rows and columns they may read.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={submitting}>
            Save view
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
