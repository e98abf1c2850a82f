import { useId, useMemo, useState } from 'react';
import { Badge, Button, Checkbox, Group, Loader, Modal, Select, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { Role } from '#common/contract/admin.ts';
import { MODAL_FADE_MS, MOBILE_BREAKPOINT_PX } from '#common/limits.ts';
import type { AdminTable } from '#web/api/admin/tables.ts';
import { useTables } from '#web/api/sql/tables.ts';
import { applyPermission, coveredTables, draftLinks } from './role-draft.ts';
import classes from './roles.module.css';

/** The Table select's longest list (a database of thousands of tables is searched, not scrolled). */
const SELECT_LIMIT = 200;

export interface PermissionModalProps {
  opened: boolean;
  draft: Role;
  /** The permission changed (null: a new one). */
  index: number | null;
  tables: AdminTable[] | undefined;
  onApply: (draft: Role) => void;
  onClose: () => void;
}

/**
 * The Permission modal (spec 000 §2, §6): a Table select limited to the tables the draft's links cover (and not
 * already given a permission), the chosen table's columns read-only, and Can insert, Can update, Can delete. Apply
 * changes the draft only; Save sends the role.
 */
export function PermissionModal({ opened, draft, index, tables, onApply, onClose }: PermissionModalProps) {
  const phone = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX - 0.02}px)`);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Permission"
      centered={!phone}
      fullScreen={phone}
      size="lg"
      transitionProps={{ transition: 'fade', duration: MODAL_FADE_MS }}
      closeButtonProps={{ 'aria-label': 'Close' }}
      styles={{ title: { fontWeight: 700 } }}
    >
      {opened && (
        <PermissionForm
          key={index ?? 'new'}
          draft={draft}
          index={index}
          tables={tables}
          onApply={onApply}
          onClose={onClose}
        />
      )}
    </Modal>
  );
}

function PermissionForm({ draft, index, tables, onApply, onClose }: Omit<PermissionModalProps, 'opened'>) {
  const current = index === null ? undefined : draft.Role_Permissions[index];
  const [tableId, setTableId] = useState<string | null>(current?.TableId ?? null);
  const [canInsert, setCanInsert] = useState(current?.CanInsert ?? false);
  const [canUpdate, setCanUpdate] = useState(current?.CanUpdate ?? false);
  const [canDelete, setCanDelete] = useState(current?.CanDelete ?? false);
  const [error, setError] = useState<string | null>(null);

  // The tables the links cover, less those another permission of the draft already has.
  const choices = useMemo(() => {
    if (!tables) return [];
    const taken = new Set(draft.Role_Permissions.filter((_, i) => i !== index).map((p) => p.TableId));
    return coveredTables(draftLinks(draft), tables).filter((table) => !taken.has(table.TableId));
  }, [draft, index, tables]);

  const data = useMemo(() => {
    const groups = new Map<string, { value: string; label: string }[]>();
    for (const table of choices) {
      const items = groups.get(table.database) ?? [];
      items.push({ value: table.TableId, label: table.TableId });
      groups.set(table.database, items);
    }
    // A permission whose table the links no longer cover still shows what it is.
    if (current && !choices.some((table) => table.TableId === current.TableId)) {
      groups.set('Not covered by the links', [{ value: current.TableId, label: current.TableId }]);
    }
    return [...groups].map(([group, items]) => ({ group, items }));
  }, [choices, current]);

  const chosen = tables?.find((table) => table.TableId === tableId) ?? null;

  const apply = () => {
    const result = applyPermission(
      draft,
      { TableId: tableId ?? '', CanInsert: canInsert, CanUpdate: canUpdate, CanDelete: canDelete },
      index,
    );
    if ('error' in result) setError(result.error);
    else onApply(result.draft);
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        apply();
      }}
    >
      <Stack gap="md">
        <Select
          label="Table"
          placeholder={tables ? 'Search the covered tables' : 'Reading the tables…'}
          description={
            tables
              ? `${choices.length} table${choices.length === 1 ? '' : 's'} covered by the role’s links can be chosen`
              : undefined
          }
          data={data}
          value={tableId}
          onChange={(value) => {
            setTableId(value);
            setError(null);
          }}
          searchable
          limit={SELECT_LIMIT}
          nothingFoundMessage={
            choices.length === 0 ? 'No table is covered by the links (add a link first)' : 'No table matches'
          }
          error={error}
          withAsterisk
          comboboxProps={{ withinPortal: true }}
          maxDropdownHeight={200}
        />
        <Columns table={chosen} />
        <Stack gap="xs">
          <Checkbox
            label="Can insert"
            checked={canInsert}
            onChange={(event) => setCanInsert(event.currentTarget.checked)}
          />
          <Checkbox
            label="Can update"
            checked={canUpdate}
            onChange={(event) => setCanUpdate(event.currentTarget.checked)}
          />
          <Checkbox
            label="Can delete"
            checked={canDelete}
            onChange={(event) => setCanDelete(event.currentTarget.checked)}
          />
        </Stack>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit">Apply</Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The chosen table's columns, read-only (spec 000 §6), from its database's table list (GET /api/sql/{db}). */
function Columns({ table }: { table: AdminTable | null }) {
  if (table === null) {
    return (
      <Text size="sm" c="dimmed">
        Choose a table to see its columns.
      </Text>
    );
  }
  return <ColumnsOf table={table} />;
}

function ColumnsOf({ table }: { table: AdminTable }) {
  const titleId = useId();
  const list = useTables(table.database);
  const found = list.data?.find((item) => item.schema === table.schema && item.name === table.name);
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id={titleId}>
        Columns (read-only)
      </Text>
      {list.isPending ? (
        <Loader size="sm" role="status" aria-label="Loading columns" />
      ) : !found ? (
        <Text size="sm" c="dimmed">
          The columns of {table.TableId} could not be read.
        </Text>
      ) : (
        <ul aria-label="Columns" aria-describedby={titleId} className={classes.columns} tabIndex={0}>
          {found.columns.map((column) => (
            <li key={column.name}>
              <Group gap={6} wrap="nowrap" py={2}>
                <Text size="sm" className={classes.code} style={{ flex: 1 }}>
                  {column.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {column.type}
                </Text>
                {column.isPrimaryKey && (
                  <Badge size="xs" variant="light">
                    key
                  </Badge>
                )}
              </Group>
            </li>
          ))}
        </ul>
      )}
    </Stack>
  );
}
