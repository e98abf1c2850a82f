import { Fragment, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { ActionIcon, Badge, Group, Table, Text } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import type { AuditEntryView } from '#common/contract/admin.ts';
import { AuditTime, AuditUser } from '#web/features/admin/audit-entry-summary.tsx';
import { auditTargetLabel } from '#web/features/admin/audit-entry-text.ts';
import { auditEntryWhat } from '#web/features/admin/bulk-entry-text.ts';
import { EntryDetail } from './entry-detail.tsx';
import classes from './audit-table.module.css';

const states = {
  done: { label: 'Done', color: 'green' },
  pending: { label: 'Pending', color: 'yellow' },
  uncertain: { label: 'Uncertain', color: 'orange' },
} as const satisfies Record<AuditEntryView['state'], { label: string; color: string }>;

/** An entry's state as a plain word: done, pending (not confirmed yet) or uncertain. */
function StateBadge({ state }: { state: AuditEntryView['state'] }) {
  const { label, color } = states[state];
  return (
    <Badge variant="light" color={color} tt="none" radius="sm">
      {label}
    </Badge>
  );
}

/** A click on the row's own text toggles it; one on a control inside (the button, a link) does its own thing. */
const onControl = (event: MouseEvent | KeyboardEvent) =>
  event.target instanceof Element && event.target.closest('button, a, input') !== null;

function EntryRows({
  entry,
  expanded,
  onToggle,
}: {
  entry: AuditEntryView;
  expanded: boolean;
  onToggle: () => void;
}) {
  const regionId = `audit-entry-${entry.id}`;
  const target = auditTargetLabel(entry.target);
  return (
    <>
      <Table.Tr
        role="row"
        className={classes.row}
        data-expanded={expanded || undefined}
        tabIndex={0}
        onClick={(event) => {
          if (!onControl(event)) onToggle();
        }}
        onKeyDown={(event) => {
          if ((event.key === 'Enter' || event.key === ' ') && event.target === event.currentTarget) {
            event.preventDefault();
            onToggle();
          }
        }}
      >
        <Table.Td role="cell" className={classes.when}>
          <Group gap={4} wrap="nowrap" align="flex-start">
            <ActionIcon
              variant="subtle"
              color="gray"
              size="sm"
              aria-label={`Show entry ${entry.id}`}
              aria-expanded={expanded}
              aria-controls={expanded ? regionId : undefined}
              onClick={onToggle}
            >
              {expanded ? (
                <IconChevronDown size={16} aria-hidden />
              ) : (
                <IconChevronRight size={16} aria-hidden />
              )}
            </ActionIcon>
            <Text span size="sm">
              <AuditTime at={entry.at} />
            </Text>
          </Group>
        </Table.Td>
        <Table.Td role="cell" className={`${classes.user} ${classes.wrap}`}>
          <AuditUser username={entry.username} />
        </Table.Td>
        <Table.Td role="cell" className={`${classes.action} ${classes.wrap}`} title={entry.action}>
          {auditEntryWhat(entry)}
        </Table.Td>
        <Table.Td role="cell" className={`${classes.target} ${classes.wrap}`}>
          {target || (
            <Text span size="sm" c="dimmed">
              none
            </Text>
          )}
        </Table.Td>
        <Table.Td role="cell" className={classes.state}>
          <StateBadge state={entry.state} />
        </Table.Td>
      </Table.Tr>
      {expanded && (
        <Table.Tr role="row" className={classes.detail}>
          <Table.Td role="cell" colSpan={5}>
            <EntryDetail entry={entry} id={regionId} />
          </Table.Td>
        </Table.Tr>
      )}
    </>
  );
}

export interface AuditTableProps {
  entries: AuditEntryView[];
  /** The next page is loading: the entries shown are the previous page's. */
  busy: boolean;
  emptyText: string;
}

/** The table "Audit trail": When, User, Action, Target, State; each row opens its entry (button, click, Enter or
 * Space on the row). */
export function AuditTable({ entries, busy, emptyText }: AuditTableProps) {
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const toggle = (id: number) =>
    setExpanded((open) => {
      const next = new Set(open);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <Table
      role="table"
      aria-label="Audit trail"
      aria-busy={busy || undefined}
      className={classes.table}
      data-busy={busy || undefined}
      fz="sm"
      verticalSpacing="xs"
      highlightOnHover
    >
      <Table.Thead role="rowgroup" className={classes.head}>
        <Table.Tr role="row">
          {['When', 'User', 'Action', 'Target', 'State'].map((name) => (
            <Table.Th key={name} role="columnheader">
              {name}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody role="rowgroup">
        {entries.length === 0 ? (
          <Table.Tr role="row">
            <Table.Td role="cell" colSpan={5}>
              <Text size="sm" c="dimmed" py="md" ta="center">
                {emptyText}
              </Text>
            </Table.Td>
          </Table.Tr>
        ) : (
          entries.map((entry) => (
            <Fragment key={entry.id}>
              <EntryRows entry={entry} expanded={expanded.has(entry.id)} onToggle={() => toggle(entry.id)} />
            </Fragment>
          ))
        )}
      </Table.Tbody>
    </Table>
  );
}
