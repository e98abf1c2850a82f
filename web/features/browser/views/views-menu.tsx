import { useEffect, useState } from 'react';
import { Button, Loader, Menu, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconCheck,
  IconChevronDown,
  IconDeviceFloppy,
  IconLayoutList,
  IconShare,
  IconTableOptions,
  IconTrash,
} from '@tabler/icons-react';
import type { SavedView } from '#common/contract/views.ts';
import { failureMessage } from '#web/api/failure-message.ts';
import type { TableRef } from '#web/api/sql/paths.ts';
import { useDeleteView } from '#web/api/views/delete-view.ts';
import { useSaveView } from '#web/api/views/save-view.ts';
import { useViews } from '#web/api/views/views.ts';
import { ConfirmModal } from '#web/ui/confirm-modal.tsx';
import { SaveViewModal } from './save-view-modal.tsx';
import { viewsTexts } from './views-texts.ts';
import { sameState, sharingText, stateOfView, viewInputOf, type ViewState } from './view-state.ts';

export interface ViewsMenuProps {
  table: TableRef;
  /** The view the browser's state started from, when one. */
  view: SavedView | null;
  /** What the browser shows now. */
  state: ViewState;
  /** Opens a view (its state replaces the browser's), or the table's default for null. */
  onOpen: (view: SavedView | null) => void;
  /** A view was saved (it becomes the browser's view) or deleted (null). */
  onChanged: (view: SavedView | null) => void;
  /** The address names a view not yet loaded: the list is read at once and handed to onLoaded (null: it failed). */
  pending: boolean;
  onLoaded: (views: readonly SavedView[] | null) => void;
  /** Open the menu as it mounts (the stand-in button was clicked). */
  openAtStart?: boolean;
}

/**
 * The Views menu of a table's card (issue 36): the saved views this person may open (their own and those shared with
 * them), Save when the browser's state differs from its view's, Save as, rename or share, and Delete for the
 * author or an administrator. The list is asked for when the menu first opens.
 */
export function ViewsMenu({
  table,
  view,
  state,
  onOpen,
  onChanged,
  pending,
  onLoaded,
  openAtStart = false,
}: ViewsMenuProps) {
  const [opened, setOpened] = useState(openAtStart);
  const [asked, setAsked] = useState(openAtStart || pending || view !== null);
  const views = useViews(asked || pending ? table : null);
  const answered = views.isSuccess || views.isError;
  useEffect(() => {
    if (pending && answered) onLoaded(views.data ?? null);
  }, [pending, answered, views.data, onLoaded]);
  const save = useSaveView(table);
  const remove = useDeleteView(table);
  const [saving, setSaving] = useState<'new' | 'existing' | null>(null);
  const [deleting, setDeleting] = useState(false);

  const changed = view !== null && !sameState(state, stateOfView(view));
  const mine = view?.mine ?? false;

  const saveChanges = async () => {
    if (!view) return;
    try {
      const result = await save.mutateAsync(
        viewInputOf(state, { id: view.Id, name: view.name, shared: view.shared }),
      );
      notifications.show({ color: 'green', message: viewsTexts.saved(result.data.name) });
      onChanged(result.data);
    } catch (error) {
      notifications.show({ color: 'red', message: failureMessage(error, viewsTexts.saveFailed) });
    }
  };
  const deleteView = async () => {
    if (!view) return;
    try {
      await remove.mutateAsync(view.Id);
      notifications.show({ color: 'green', message: viewsTexts.deleted(view.name) });
      setDeleting(false);
      onChanged(null);
    } catch (error) {
      notifications.show({ color: 'red', message: failureMessage(error, viewsTexts.deleteFailed) });
    }
  };

  const list = () => {
    if (views.isPending) {
      return (
        <Menu.Item disabled leftSection={<Loader size={14} />}>
          Loading the views…
        </Menu.Item>
      );
    }
    if (views.isError) return <Menu.Label>{viewsTexts.loadFailed}</Menu.Label>;
    if (views.data.length === 0) return <Menu.Label>{viewsTexts.none}</Menu.Label>;
    return views.data.map((item) => (
      <Menu.Item
        key={item.Id}
        leftSection={
          item.Id === view?.Id ? <IconCheck size={16} aria-hidden /> : <span style={{ width: 16 }} />
        }
        onClick={() => onOpen(item)}
        aria-current={item.Id === view?.Id || undefined}
      >
        <Text size="sm" lineClamp={1}>
          {item.name}
        </Text>
        <Text size="xs" c="dimmed" lineClamp={1}>
          {item.mine ? sharingText(item.shared) : `Shared by ${item.author}`}
        </Text>
      </Menu.Item>
    ));
  };

  return (
    <>
      <Menu
        opened={opened}
        onChange={(next) => {
          setOpened(next);
          if (next) {
            setAsked(true);
            if (views.isError) void views.refetch();
          }
        }}
        position="bottom-start"
        width={300}
        withinPortal
        // Opened as it mounts (openAtStart), the target can look detached for a frame (always, in jsdom's boxes of no
        // size): the dropdown stays shown whatever the target's position.
        hideDetached={false}
        // Mantine's focus placeholder is a child a menu may not have (axe: aria-required-children): the first item
        // takes the focus instead, as the ARIA menu pattern says.
        withInitialFocusPlaceholder={false}
      >
        <Menu.Target>
          <Button
            variant="default"
            leftSection={<IconLayoutList size={16} aria-hidden="true" />}
            rightSection={<IconChevronDown size={14} aria-hidden="true" />}
            maw="100%"
          >
            {view ? (
              // A view's name has up to 80 characters: the button cuts it, the menu shows it whole.
              <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                {viewsTexts.button}: {view.name}
                {changed ? ' (changed)' : ''}
              </span>
            ) : (
              viewsTexts.button
            )}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>Saved views</Menu.Label>
          {list()}
          <Menu.Divider />
          <Menu.Item
            leftSection={
              view === null ? <IconCheck size={16} aria-hidden /> : <IconTableOptions size={16} aria-hidden />
            }
            onClick={() => onOpen(null)}
          >
            {viewsTexts.tableDefault}
          </Menu.Item>
          <Menu.Divider />
          {view && mine && changed && (
            <Menu.Item
              leftSection={<IconDeviceFloppy size={16} aria-hidden />}
              onClick={() => void saveChanges()}
            >
              {viewsTexts.save(view.name)}
            </Menu.Item>
          )}
          <Menu.Item
            leftSection={<IconDeviceFloppy size={16} aria-hidden />}
            onClick={() => setSaving('new')}
          >
            {viewsTexts.saveAs}
          </Menu.Item>
          {view && mine && (
            <>
              <Menu.Item
                leftSection={<IconShare size={16} aria-hidden />}
                onClick={() => setSaving('existing')}
              >
                {viewsTexts.share(view.name)}
              </Menu.Item>
              <Menu.Item
                color="red"
                leftSection={<IconTrash size={16} aria-hidden />}
                onClick={() => setDeleting(true)}
              >
                {viewsTexts.delete(view.name)}
              </Menu.Item>
            </>
          )}
        </Menu.Dropdown>
      </Menu>
      <SaveViewModal
        opened={saving !== null}
        onClose={() => setSaving(null)}
        table={table}
        state={state}
        view={saving === 'existing' ? view : null}
        onSaved={onChanged}
      />
      {view && (
        <ConfirmModal
          opened={deleting}
          title="Delete view"
          confirmLabel="Delete"
          color="red"
          loading={remove.isPending}
          onClose={() => setDeleting(false)}
          onConfirm={() => void deleteView()}
        >
          {viewsTexts.confirmDelete(view.name)}
        </ConfirmModal>
      )}
    </>
  );
}
