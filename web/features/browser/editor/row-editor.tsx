import { useReducer, useRef, useState } from 'react';
import { IconCopy, IconTrash } from '@tabler/icons-react';
import {
  ActionIcon,
  Button,
  Grid,
  Group,
  Loader,
  Modal,
  Paper,
  Stack,
  Tabs,
  Text,
  Tooltip,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import type { Row, TableListItem } from '#common/contract/sql.ts';
import { MOBILE_BREAKPOINT_PX, MODAL_FADE_MS } from '#common/limits.ts';
import { browserMessages as bm } from '#common/messages.ts';
import { failureMessage } from '#web/api/failure-message.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import type { TableRef } from '#web/api/sql/paths.ts';
import { useDeleteRow } from '#web/api/sql/delete-row.ts';
import { hasRowKey, useReferences } from '#web/api/sql/references.ts';
import { changedRowOf } from '#web/api/sql/row-conflict.ts';
import { useUpsertRow } from '#web/api/sql/upsert-row.ts';
import { usePendingChanges } from '#web/forms/pending-changes.ts';
import { usePopup } from '#web/ui/popups.ts';
import { conflictMessages } from './conflict/conflict-messages.ts';
import { RowConflict } from './conflict/row-conflict.tsx';
import { versionedBody, withVersionOf, type RowConflictRows } from './conflict/row-conflict.ts';
import { editorMessages as em } from './editor-messages.ts';
import {
  closeRefusal,
  deleteRefusal,
  editorReducer,
  isPending,
  openEditor,
  type EditorAction,
  type EditorState,
} from './editor-state.ts';
import { RowFieldInput } from './fields/row-field.tsx';
import { ReferencedBy } from './referenced-by.tsx';
import { referencingName } from './referencing.ts';
import { deleteBody, formSections, rowErrors, rowFields, rowsCanChange } from './row-fields.ts';
import { RowHistory } from './row-history.tsx';

/** Which row the editor shows: an existing one (edit) or a new one (add). */
export type EditorTarget = { mode: 'edit'; row: Row } | { mode: 'add' };

export interface RowEditorProps {
  db: string;
  table: TableListItem;
  /** null: the editor is closed. */
  target: EditorTarget | null;
  /** changed: something was saved or deleted, so the grid refreshes (spec 000 §4). */
  onClose: (changed: boolean) => void;
}

/*
 * Which toast says what (spec 000 §4 and §8 name both sets; each outcome gets one toast carrying both where both fit):
 * - Save (add or edit) succeeded: title 'Successfully saved changes.' (§4), text the server's message, which is
 *   'Successfully updated row.' (§8 Rows; it is the fallback too).
 * - Save failed: title 'Failed to save changes.' (§4), text the server's reason, else 'Failed to update row.' (§8).
 * - Delete: 'Successfully deleted row.', or 'Failed to delete row.' with the server's reason (§8).
 * - Delete with pending changes: 'Cannot delete with pending changes.' (§4, §8), nothing is asked or sent.
 * - Close (X, Escape, a click outside) with pending changes: refused, the modal stays open and a toast says 'Save or
 *   discard your changes before closing.' (the banner with both buttons is right there, so a question would only
 *   repeat it); the same rule holds navigation while the editor has pending changes (usePendingChanges).
 */

/** Grid spans on the modal's own width (container queries): the spec's 2 and 3 of 12 on a wide form, fewer fields
 * a line as the form narrows, one a line on a phone. */
const SPANS = {
  2: { base: 12, xs: 6, sm: 4, lg: 2 },
  3: { base: 12, xs: 6, md: 4, lg: 3 },
} as const;
const CONTAINER_BREAKPOINTS = { xs: '420px', sm: '600px', md: '780px', lg: '1000px', xl: '1200px' };

/** The row editor modal (spec 000 §2, §4, §5, §8). */
export function RowEditor({ db, table, target, onClose }: RowEditorProps) {
  // The last target stays shown while the modal fades out; each opening mounts the form afresh.
  const [shown, setShown] = useState<{ target: EditorTarget; opening: number } | null>(
    target ? { target, opening: 1 } : null,
  );
  if (target && target !== shown?.target) setShown({ target, opening: (shown?.opening ?? 0) + 1 });
  if (!shown) return null;
  return (
    <EditorContent
      key={shown.opening}
      db={db}
      table={table}
      target={shown.target}
      opened={target !== null}
      onClose={onClose}
    />
  );
}

interface EditorContentProps {
  db: string;
  table: TableListItem;
  target: EditorTarget;
  opened: boolean;
  onClose: (changed: boolean) => void;
}

function EditorContent({ db, table, target, opened, onClose }: EditorContentProps) {
  const phone = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX - 0.02}px)`) ?? false;
  const ref: TableRef = { db, schema: table.schema, table: table.name };
  const [state, dispatch] = useReducer(
    (current: EditorState, action: EditorAction) => editorReducer(table, current, action),
    null,
    () => openEditor(table, target.mode, target.mode === 'edit' ? target.row : null),
  );
  const [tab, setTab] = useState<string>('row');
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  // A save refused because someone else changed the row since it was read: the three rows and the server's words.
  const [conflict, setConflict] = useState<{ rows: RowConflictRows; message: string; at: number } | null>(
    null,
  );
  /** Back from the conflict view to the form: the focus goes to its first field. */
  const closeConflict = () => {
    setConflict(null);
    requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-column]')?.focus());
  };
  // Something was saved, deleted or undone since the editor opened: the grid reads its page again on close.
  const changed = useRef(false);
  const upsert = useUpsertRow(ref);
  const remove = useDeleteRow(ref);
  // What references the row, asked when the delete question opens (issue 37): the question says what the database
  // will do to those rows. The Referenced-by tab asks the same (one cached answer when both are opened).
  const referencing = useReferences(ref, table, state.backup.row, confirmingDelete && state.mode === 'edit');
  const queryClient = useQueryClient();

  const { rights } = table;
  const canWrite = state.mode === 'add' ? rights.canInsert : rights.canUpdate;
  const fields = rowFields(table, state.mode, canWrite);
  const errors = rowErrors(fields, state.values, state.typed);
  const pending = isPending(state);
  usePendingChanges(opened && pending);

  const close = () => {
    const refusal = closeRefusal(state);
    if (refusal) {
      notifications.show({ color: 'yellow', message: refusal });
      return;
    }
    onClose(changed.current);
  };
  usePopup(opened, () => onClose(changed.current));

  const save = async () => {
    dispatch({ type: 'markAll' });
    const invalid = fields.find((field) => errors[field.column.name]);
    if (invalid) {
      setTab('row');
      const inputs = document.querySelectorAll<HTMLElement>('[data-column]');
      [...inputs].find((node) => node.dataset.column === invalid.column.name)?.focus();
      return;
    }
    await submit(state.values, state.backup.row);
  };

  /** Saves `values` over `read`, the row as it was read (its version goes along: decision 0045). A refusal because the
   * row changed since opens the conflict view, with the edits kept. */
  const submit = async (values: Row, read: Row) => {
    try {
      const answer = await upsert.mutateAsync(versionedBody(table, state.mode, values, read));
      changed.current = true;
      setConflict(null);
      dispatch({ type: 'saved', row: answer.data });
      notifications.show({
        color: 'green',
        title: bm.savedChanges,
        message: answer.message ?? bm.rowUpdated,
      });
    } catch (error) {
      const theirs = state.mode === 'edit' ? changedRowOf(error) : null;
      if (theirs) {
        setTab('row');
        // Refused again while resolving: the view opens afresh on the newer row (`at` remounts it).
        setConflict((previous) => ({
          rows: { original: read, mine: values, theirs },
          message: failureMessage(error, bm.rowUpdateFailed),
          at: (previous?.at ?? 0) + 1,
        }));
        return;
      }
      notifications.show({
        color: 'red',
        title: bm.saveFailed,
        message: failureMessage(error, bm.rowUpdateFailed),
      });
    }
  };

  const askDelete = () => {
    const refusal = deleteRefusal(state);
    if (refusal) {
      notifications.show({ color: 'yellow', message: refusal });
      return;
    }
    setConfirmingDelete(true);
  };

  const confirmDelete = async () => {
    try {
      await remove.mutateAsync(withVersionOf(table, deleteBody(table, state.backup.row), state.backup.row));
      setConfirmingDelete(false);
      // Rows of other tables the database deleted or changed with it (cascade, set null, set default): their pages are
      // read again when next shown.
      for (const reference of referencing.data ?? []) {
        if (reference.onDelete === 'restrict' || reference.onDelete === 'no action' || reference.count === 0)
          continue;
        void queryClient.invalidateQueries({
          queryKey: queryKeys.sql.table({ db, schema: reference.schema, table: reference.table }),
          refetchType: 'none',
        });
      }
      notifications.show({ color: 'green', message: bm.rowDeleted });
      onClose(true);
    } catch (error) {
      setConfirmingDelete(false);
      // Changed by someone else since it was read: the row as it is now is shown, to be deleted again if still meant.
      const current = changedRowOf(error);
      if (current) {
        changed.current = true;
        dispatch({ type: 'saved', row: current });
      }
      notifications.show({
        color: 'red',
        title: bm.rowDeleteFailed,
        message: failureMessage(error, bm.rowDeleteFailed),
      });
    }
  };

  const editing = state.mode === 'edit';
  const note = editing
    ? !rights.canUpdate
      ? em.readOnlyRow
      : !rowsCanChange(table)
        ? em.noChangeWithoutKey
        : null
    : state.backup.mode === 'edit'
      ? em.copied
      : null;
  const canSave = canWrite;
  // A row of a table without a key cannot be named to the server, so nothing can be asked about what references it.
  const referencesShown = editing && hasRowKey(table);

  return (
    <>
      <Modal.Root
        opened={opened}
        onClose={close}
        size="75rem"
        fullScreen={phone}
        centered={!phone}
        transitionProps={{ transition: 'fade', duration: MODAL_FADE_MS }}
      >
        <Modal.Overlay />
        <Modal.Content>
          <Modal.Header>
            <Stack gap={0} miw={0} style={{ flex: 1 }}>
              <Modal.Title fw={700} fz="lg">
                {editing ? em.editTitle : em.addTitle}
              </Modal.Title>
              <Text size="sm" c="dimmed" truncate="end">
                {table.schema}.{table.name}
              </Text>
            </Stack>
            <Group gap={4} wrap="nowrap">
              {rights.canInsert && editing && (
                <Tooltip label={em.copyRow}>
                  <ActionIcon
                    variant="subtle"
                    size="lg"
                    aria-label={em.copyRow}
                    onClick={() => dispatch({ type: 'copy' })}
                  >
                    <IconCopy size={20} aria-hidden="true" />
                  </ActionIcon>
                </Tooltip>
              )}
              {rights.canDelete && editing && (
                <Tooltip label={em.deleteRow}>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    size="lg"
                    aria-label={em.deleteRow}
                    onClick={askDelete}
                  >
                    <IconTrash size={20} aria-hidden="true" />
                  </ActionIcon>
                </Tooltip>
              )}
              <Modal.CloseButton aria-label="Close" />
            </Group>
          </Modal.Header>
          <Modal.Body pb={0}>
            <Tabs
              value={editing ? tab : 'row'}
              onChange={(value) => setTab(value ?? 'row')}
              keepMounted={false}
            >
              <Tabs.List mb="md">
                <Tabs.Tab value="row">{em.rowTab}</Tabs.Tab>
                {editing && <Tabs.Tab value="history">{em.historyTab}</Tabs.Tab>}
                {referencesShown && <Tabs.Tab value="references">{em.referencesTab}</Tabs.Tab>}
              </Tabs.List>
              <Tabs.Panel value="row">
                {conflict && (
                  <RowConflict
                    key={conflict.at}
                    table={table}
                    rows={conflict.rows}
                    message={conflict.message}
                    saving={upsert.isPending}
                    onSave={(values) => void submit(values, conflict.rows.theirs)}
                    onTakeTheirs={() => {
                      closeConflict();
                      changed.current = true;
                      dispatch({ type: 'saved', row: conflict.rows.theirs });
                      notifications.show({ color: 'blue', message: conflictMessages.tookTheirs });
                    }}
                    onBack={closeConflict}
                  />
                )}
                <form
                  hidden={conflict !== null}
                  aria-label={editing ? em.editTitle : em.addTitle}
                  noValidate
                  onSubmit={(event) => {
                    event.preventDefault();
                    if (pending && canSave) void save();
                  }}
                >
                  {note && (
                    <Text size="sm" c="dimmed" mb="sm">
                      {note}
                    </Text>
                  )}
                  <Stack gap="md">
                    {formSections(fields).map(({ section, fields: sectionFields }) => (
                      // Each block fills its lines (grow): no field is left beside an empty stretch.
                      <Grid
                        key={section}
                        type="container"
                        breakpoints={CONTAINER_BREAKPOINTS}
                        gap="md"
                        grow
                        data-section={section}
                      >
                        {sectionFields.map((field) => {
                          const name = field.column.name;
                          return (
                            <Grid.Col key={name} span={SPANS[field.width]}>
                              <RowFieldInput
                                field={field}
                                value={state.values[name] ?? null}
                                error={state.marked.has(name) ? errors[name] : undefined}
                                onChange={(value) => dispatch({ type: 'change', column: name, value })}
                                onBlur={() => dispatch({ type: 'leave', column: name })}
                                typed={state.typed[name]}
                                onTyped={(text) => dispatch({ type: 'typed', column: name, text })}
                                tableRef={ref}
                              />
                            </Grid.Col>
                          );
                        })}
                      </Grid>
                    ))}
                  </Stack>
                  <PendingBanner
                    pending={pending}
                    canSave={canSave}
                    saving={upsert.isPending}
                    onDiscard={() => dispatch({ type: 'discard' })}
                  />
                </form>
              </Tabs.Panel>
              {editing && (
                <Tabs.Panel value="history" pb="md">
                  <RowHistory
                    db={db}
                    table={table}
                    row={state.backup.row}
                    onUndone={(row) => {
                      changed.current = true;
                      if (row === null) onClose(true);
                      else dispatch({ type: 'saved', row });
                    }}
                  />
                </Tabs.Panel>
              )}
              {referencesShown && (
                <Tabs.Panel value="references" pb="md">
                  <ReferencedBy
                    db={db}
                    table={table}
                    row={state.backup.row}
                    onFollow={(event) => {
                      // A link leaves the editor for another grid: pending changes hold it, as they hold a close.
                      const refusal = closeRefusal(state);
                      if (refusal) {
                        event.preventDefault();
                        notifications.show({ color: 'yellow', message: refusal });
                        return;
                      }
                      onClose(changed.current);
                    }}
                  />
                </Tabs.Panel>
              )}
            </Tabs>
          </Modal.Body>
        </Modal.Content>
      </Modal.Root>
      <Modal.Root
        opened={confirmingDelete}
        onClose={() => setConfirmingDelete(false)}
        centered
        size="sm"
        zIndex={400}
        transitionProps={{ transition: 'fade', duration: MODAL_FADE_MS }}
      >
        <Modal.Overlay />
        <Modal.Content>
          <Modal.Header>
            <Modal.Title fw={700}>{bm.deleteRowTitle}</Modal.Title>
            <Modal.CloseButton aria-label="Close" />
          </Modal.Header>
          <Modal.Body>
            <Text size="sm">{bm.deleteRowMessage}</Text>
            <DeleteConsequences schema={table.schema} query={referencing} />
            <Group justify="flex-end" gap="sm" mt="lg">
              <Button variant="default" onClick={() => setConfirmingDelete(false)}>
                {em.cancel}
              </Button>
              <Button color="red" loading={remove.isPending} onClick={() => void confirmDelete()}>
                {em.delete}
              </Button>
            </Group>
          </Modal.Body>
        </Modal.Content>
      </Modal.Root>
    </>
  );
}

/**
 * Below the spec's delete question (issue 37): what the database will do to the rows that reference this row, one
 * sentence a referencing table (refuse, delete them too, set their reference to null or default); nothing when no row
 * references it.
 */
function DeleteConsequences({ schema, query }: { schema: string; query: ReturnType<typeof useReferences> }) {
  if (query.isPending) {
    return (
      <Group gap="xs" mt="sm" role="status" wrap="nowrap">
        <Loader size="xs" />
        <Text size="sm" c="dimmed">
          {em.referencesChecking}
        </Text>
      </Group>
    );
  }
  if (query.isError) {
    return (
      <Text size="sm" c="dimmed" mt="sm">
        {em.referencesUnchecked(failureMessage(query.error, em.referencesFailed))}
      </Text>
    );
  }
  const pointing = query.data.filter((reference) => reference.count !== 0);
  if (pointing.length === 0) return null;
  return (
    <Stack gap={4} mt="sm">
      {pointing.map((reference) => (
        <Text key={`${reference.schema}.${reference.table}.${reference.constraint}`} size="sm">
          {em.deleteConsequence(
            referencingName(reference, schema, query.data),
            reference.onDelete,
            reference.count,
            reference.capped,
          )}
        </Text>
      ))}
    </Stack>
  );
}

/** The bottom banner of pending changes (spec 000 §4): it appears with the first edit and goes with Save or Discard. */
function PendingBanner({
  pending,
  canSave,
  saving,
  onDiscard,
}: {
  pending: boolean;
  canSave: boolean;
  saving: boolean;
  onDiscard: () => void;
}) {
  return (
    <div
      style={{
        position: 'sticky',
        bottom: 0,
        zIndex: 2,
        paddingBottom: 'var(--mantine-spacing-md)',
        paddingTop: 'var(--mantine-spacing-md)',
        background: 'var(--mantine-color-body)',
      }}
    >
      {pending && (
        <Paper withBorder radius="md" px="sm" py="xs" role="status" aria-live="polite" shadow="sm">
          <Group justify="space-between" gap="xs">
            <Text size="sm" fw={500}>
              {bm.pendingChanges}
            </Text>
            <Group gap="xs" wrap="nowrap" ml="auto">
              <Button variant="default" onClick={onDiscard} disabled={saving}>
                {em.discardChanges}
              </Button>
              {canSave && (
                <Button type="submit" loading={saving}>
                  {em.saveChanges}
                </Button>
              )}
            </Group>
          </Group>
        </Paper>
      )}
    </div>
  );
}
