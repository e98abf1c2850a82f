import { useCallback, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import type { Role } from '#common/contract/admin.ts';
import { adminMessages } from '#common/messages.ts';
import { useDeleteRole } from '#web/api/admin/delete-role.ts';
import { useRole } from '#web/api/admin/role.ts';
import { useRemoveRolePart, type RolePart } from '#web/api/admin/remove-role-part.ts';
import { useSaveRole } from '#web/api/admin/save-role.ts';
import { failureMessage } from '#web/api/failure-message.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import { usePendingChanges } from '#web/forms/pending-changes.ts';
import {
  draftOf,
  isDeletable,
  isPending,
  newRoleDraft,
  removePart,
  roleToSave,
  withoutSavedPart,
  type RolePartList,
} from './role-draft.ts';

/** The app store table a saved item of each list lives in, and the toast of its removal. */
const PARTS: Record<RolePartList, { part: RolePart; removed: string }> = {
  Role_Links: { part: 'role_links', removed: adminMessages.linkRemoved },
  Role_Permissions: { part: 'role_permissions', removed: adminMessages.permissionRemoved },
  User_Roles: { part: 'user_roles', removed: adminMessages.userRoleRemoved },
};

const success = (message: string) => notifications.show({ color: 'green', message });
const failure = (error: unknown) =>
  notifications.show({
    color: 'red',
    message: failureMessage(error, adminMessages.somethingWentWrongTryAgain),
  });
const refused = () =>
  notifications.show({ color: 'yellow', message: adminMessages.cannotHavePendingChanges });

/** The selected role's Id in the address (?id=N), or null. */
function idOf(search: string): number | null {
  const raw = new URLSearchParams(search).get('id');
  if (raw === null || !/^[1-9]\d{0,9}$/.test(raw)) return null;
  return Number(raw);
}

/**
 * Writes the selected role into the address (?id=N) without a router navigation: the site layout rebuilds the page
 * on every navigation, which would drop the draft (as the browser writes its view, decision 0027). history.state is
 * kept: the data router keeps its key and index there.
 */
function writeRoleAddress(id: number | null): void {
  const params = new URLSearchParams(window.location.search);
  if (id === null) params.delete('id');
  else params.set('id', String(id));
  const query = params.toString();
  const url = `${window.location.pathname}${query ? `?${query}` : ''}`;
  if (`${window.location.pathname}${window.location.search}` === url) return;
  window.history.replaceState(window.history.state, '', url);
}

export interface RoleEditor {
  /** The role chosen in the address (null: none, or a new role). */
  selectedId: number | null;
  /** The role being edited (null: none). */
  draft: Role | null;
  /** The role as saved (null for a new one). */
  saved: Role | null;
  pending: boolean;
  /** The saved role is being read. */
  loading: boolean;
  /** Why the saved role could not be read. */
  loadError: string | null;
  saving: boolean;
  deleting: boolean;
  /** The saved part being removed, as "{list}:{Id}". */
  removing: string | null;
  /** Each refuses with 'Cannot have pending changes.' while the draft has some; false when refused. */
  select(id: number): boolean;
  add(): boolean;
  /** Whether Delete may open its confirmation (nothing pending; Id above 3). */
  askDelete(): boolean;
  confirmDelete(): Promise<boolean>;
  change(draft: Role): void;
  discard(): void;
  /** Saves the whole role; false when the server refused (the draft stays). */
  save(): Promise<boolean>;
  /** Removes an item: an unsaved one (Id 0) from the draft only; a saved one on the server at once. */
  remove(list: RolePartList, index: number): void;
}

/**
 * The roles page's state (spec 000 §4 "Account and role pending changes"): the selected role in the address
 * (?id=N, written with replaceState, so a reload keeps it), the draft beside the saved role, and the page's calls with their toasts
 * (§8). While the draft has pending changes, selecting another role, Add Role, Delete and removing a saved item
 * are refused with 'Cannot have pending changes.', and leaving the page is held (usePendingChanges).
 */
export function useRoleEditor(): RoleEditor {
  const location = useLocation();
  // The address is read once: the page is rebuilt on every navigation, and writes it back itself.
  const [selectedId, setSelectedId] = useState(() => idOf(location.search));
  const queryClient = useQueryClient();
  // The role being deleted is not read again (its delete refreshes every role query, and it is gone).
  const [deletingId, setDeletingId] = useState<number | null>(null);
  const savedQuery = useRole(selectedId === deletingId ? null : selectedId);
  const saveRole = useSaveRole();
  const deleteRole = useDeleteRole();
  const removeRolePart = useRemoveRolePart(selectedId ?? 0);

  // The draft and the saved role it started from; a new role has no saved one.
  const [draft, setDraft] = useState<Role | null>(null);
  const [base, setBase] = useState<Role | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const pending = isPending(draft, base);
  const guard = usePendingChanges(pending);

  // The saved role as read: a draft starts from it; read again (after a removal or by another administrator), it
  // replaces a draft without pending changes and leaves one with pending changes alone. (State adjusted while
  // rendering, as React advises for state that follows other state.)
  const fresh = selectedId !== null ? savedQuery.data : undefined;
  if (
    fresh !== undefined &&
    fresh.Id === selectedId &&
    fresh !== base &&
    !(draft !== null && draft.Id === fresh.Id && isPending(draft, base))
  ) {
    setBase(fresh);
    setDraft(draftOf(fresh));
  }

  const loadFailed = selectedId !== null && savedQuery.isError;
  useEffect(() => {
    if (loadFailed) failure(savedQuery.error);
  }, [loadFailed, savedQuery.error]);

  const address = useCallback((id: number | null) => {
    setSelectedId(id);
    writeRoleAddress(id);
  }, []);

  const select = (id: number) =>
    guard(() => {
      if (id === selectedId && draft?.Id === id) return;
      const cached = queryClient.getQueryData<Role>(queryKeys.admin.role(id));
      setBase(cached ?? null);
      setDraft(cached ? draftOf(cached) : null);
      address(id);
    }, adminMessages.cannotHavePendingChanges);

  const add = () =>
    guard(() => {
      setBase(null);
      setDraft(newRoleDraft());
      address(null);
    }, adminMessages.cannotHavePendingChanges);

  const askDelete = () => {
    if (draft === null || !isDeletable(draft)) return false;
    return guard(() => undefined, adminMessages.cannotHavePendingChanges);
  };

  const confirmDelete = async () => {
    if (draft === null || !isDeletable(draft)) return false;
    setDeletingId(draft.Id);
    try {
      const result = await deleteRole.mutateAsync(draft.Id);
      success(result.message ?? adminMessages.roleDeleted);
      setDraft(null);
      setBase(null);
      setDeletingId(null);
      address(null);
      return true;
    } catch (error) {
      setDeletingId(null);
      failure(error);
      return false;
    }
  };

  const discard = () => {
    if (base === null) setDraft(null);
    else setDraft(draftOf(base));
  };

  const save = async () => {
    if (draft === null) return false;
    const body = roleToSave(draft);
    if (body === null) return false;
    try {
      const result = await saveRole.mutateAsync(body);
      success(result.message ?? adminMessages.roleUpdated);
      setBase(result.data);
      setDraft(draftOf(result.data));
      if (result.data.Id !== selectedId) address(result.data.Id);
      return true;
    } catch (error) {
      failure(error);
      return false;
    }
  };

  const remove = (list: RolePartList, index: number) => {
    if (draft === null) return;
    const item = draft[list][index];
    if (item === undefined) return;
    if (item.Id === 0) {
      setDraft(removePart(draft, list, index));
      return;
    }
    if (pending || base === null) {
      refused();
      return;
    }
    const { part, removed } = PARTS[list];
    const key = `${list}:${item.Id}`;
    setRemoving(key);
    removeRolePart.mutate(
      { part, id: item.Id },
      {
        onSuccess: () => {
          const next = withoutSavedPart(base, list, item.Id);
          queryClient.setQueryData(queryKeys.admin.role(next.Id), next);
          setBase(next);
          setDraft(draftOf(next));
          success(removed);
        },
        onError: failure,
        onSettled: () => setRemoving(null),
      },
    );
  };

  return {
    selectedId,
    draft,
    saved: base,
    pending,
    loading: selectedId !== null && selectedId !== deletingId && savedQuery.isPending,
    loadError: loadFailed ? failureMessage(savedQuery.error, adminMessages.somethingWentWrongTryAgain) : null,
    saving: saveRole.isPending,
    deleting: deleteRole.isPending,
    removing,
    select,
    add,
    askDelete,
    confirmDelete,
    change: setDraft,
    discard,
    save,
    remove,
  };
}
