import { Fragment, useId, useMemo, useState } from 'react';
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconCheck, IconMinus, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import type { Role } from '#common/contract/admin.ts';
import type { AdminTable } from '#web/api/admin/tables.ts';
import { coverageOf, draftLinks } from './role-draft.ts';
import { PermissionModal } from './permission-modal.tsx';

export interface PermissionsSectionProps {
  draft: Role;
  tables: AdminTable[] | undefined;
  onChange: (draft: Role) => void;
  onRemove: (index: number) => void;
  removingId: number | null;
  problem?: string;
}

/** Which permission the modal edits: a new one, or the one at an index. */
type Editing = { index: number | null } | null;

/**
 * The role's per-table permissions (spec 000 §6): a table of Table, Insert, Update, Delete with Edit and Remove per
 * row, and Add permission; both open the Permission modal. A permission whose table the links no longer cover is
 * marked, since the save would be refused.
 */
export function PermissionsSection({
  draft,
  tables,
  onChange,
  onRemove,
  removingId,
  problem,
}: PermissionsSectionProps) {
  const titleId = useId();
  const [editing, setEditing] = useState<Editing>(null);
  const covers = useMemo(() => coverageOf(draftLinks(draft)), [draft]);

  return (
    <Stack component="section" aria-labelledby={titleId} gap="xs">
      <Group justify="space-between" gap="xs">
        <Title order={3} fz="h5" id={titleId}>
          Permissions
        </Title>
        <Button
          variant="light"
          size="xs"
          leftSection={<IconPlus size={14} aria-hidden="true" />}
          onClick={() => setEditing({ index: null })}
        >
          Add permission
        </Button>
      </Group>
      {problem && (
        <Text size="sm" c="red" role="alert">
          {problem}
        </Text>
      )}
      {draft.Role_Permissions.length === 0 ? (
        <Text size="sm" c="dimmed">
          No permissions: the role’s users can read the tables its links cover, but not add, change or delete
          rows.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={300} type="native">
          <Table aria-label="Permissions" verticalSpacing={6} highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Table</Table.Th>
                <Table.Th ta="center" w={64}>
                  Insert
                </Table.Th>
                <Table.Th ta="center" w={64}>
                  Update
                </Table.Th>
                <Table.Th ta="center" w={64}>
                  Delete
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {draft.Role_Permissions.map((permission, index) => (
                <Table.Tr key={permission.Id > 0 ? `saved-${permission.Id}` : `new-${index}`}>
                  <Table.Td>
                    {/* The actions sit with the table's name, so a phone reaches them without scrolling sideways. */}
                    <Group gap={4} wrap="wrap" justify="space-between" align="flex-start">
                      <div style={{ flex: '1 1 8rem', minWidth: 0 }}>
                        <Text size="sm" ff="monospace" style={{ overflowWrap: 'break-word' }}>
                          <BreakAfterSlashes text={permission.TableId} />
                        </Text>
                        {!covers(permission.TableId) && (
                          <Badge color="red" variant="light" size="xs" tt="none">
                            not covered by the links
                          </Badge>
                        )}
                      </div>
                      <Group gap={0} wrap="nowrap">
                        <Tooltip label="Edit permission">
                          <ActionIcon
                            variant="subtle"
                            aria-label={`Edit permission ${permission.TableId}`}
                            onClick={() => setEditing({ index })}
                          >
                            <IconPencil size={18} aria-hidden="true" />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label="Remove permission">
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={`Remove permission ${permission.TableId}`}
                            loading={permission.Id > 0 && permission.Id === removingId}
                            onClick={() => onRemove(index)}
                          >
                            <IconTrash size={18} aria-hidden="true" />
                          </ActionIcon>
                        </Tooltip>
                      </Group>
                    </Group>
                  </Table.Td>
                  <Flag value={permission.CanInsert} />
                  <Flag value={permission.CanUpdate} />
                  <Flag value={permission.CanDelete} />
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <PermissionModal
        opened={editing !== null}
        draft={draft}
        index={editing?.index ?? null}
        tables={tables}
        onApply={(next) => {
          onChange(next);
          setEditing(null);
        }}
        onClose={() => setEditing(null)}
      />
    </Stack>
  );
}

function Flag({ value }: { value: boolean }) {
  return (
    <Table.Td ta="center">
      {value ? (
        <IconCheck size={18} color="var(--mantine-color-green-filled)" aria-hidden="true" />
      ) : (
        <IconMinus size={18} color="var(--mantine-color-dimmed)" aria-hidden="true" />
      )}
      <VisuallyHidden>{value ? 'Yes' : 'No'}</VisuallyHidden>
    </Table.Td>
  );
}

/** A TableId that may wrap after its slashes (chinook/<wbr>main/<wbr>Customer) rather than inside a name; the text,
 * and so the accessible name, stays the same. */
function BreakAfterSlashes({ text }: { text: string }) {
  return text.split(/(?<=\/)/).map((part, i) => (
    <Fragment key={i}>
      {i > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}
