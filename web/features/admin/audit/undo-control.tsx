import { Anchor, Button, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowBackUp, IconRestore } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { AuditEntryView } from '#common/contract/admin.ts';
import { failureMessage } from '#web/api/failure-message.ts';
import { useUndoAuditEntry } from '#web/api/admin/undo-audit-entry.ts';
import { auditTargetTableId, undoKind } from '#web/features/admin/audit-entry-text.ts';
import { bulkEntryOf } from '#web/features/admin/bulk-entry-text.ts';
import { auditSearch, noFilters } from './audit-address.ts';

const um = {
  undone: 'The change was undone.',
  failed: 'Failed to undo the change.',
} as const;

/** Where "Undone by #N" leads: the undos of the same table (the trail has no filter by entry). */
function undosHref(entry: AuditEntryView): string {
  const table = auditTargetTableId(entry.target);
  return `/admin/audit?${auditSearch({ ...noFilters, table, actions: ['data.undo'], page: 1 }).toString()}`;
}

/** A bulk change's undo: Undo for an update, Restore for a delete, once it has ended having changed rows (the
 * server refuses one still running); its undo is not undone in turn. */
function bulkUndoKind(entry: AuditEntryView): 'undo' | 'restore' | null {
  const bulk = bulkEntryOf(entry);
  if (!bulk || bulk.kind !== 'change' || bulk.rows === 0) return null;
  if (bulk.status === 'running' || bulk.status === 'queued') return null;
  return bulk.change === 'delete' ? 'restore' : 'undo';
}

/**
 * An entry's undo: "Undo" for an update or insert, "Restore" for a delete, while it is done and not undone (the
 * server undoes only those: server/features/audit/undo-service.ts); an undone entry says by which entry. The toast
 * is the server's message, green when it undid, red with its reason when it refused. A bulk change's undo is a job:
 * the server's message says it runs, and the trail, read again, shows its entry.
 */
export function UndoControl({ entry }: { entry: AuditEntryView }) {
  const undo = useUndoAuditEntry();
  const kind = entry.action === 'data.bulk' ? bulkUndoKind(entry) : undoKind(entry.action);

  if (entry.undoneBy !== null)
    return (
      <Text size="sm">
        Undone by{' '}
        <Anchor component={Link} to={undosHref(entry)} inherit>
          #{entry.undoneBy}
        </Anchor>
      </Text>
    );
  if (kind === null || entry.state !== 'done') return null;

  const run = () =>
    undo.mutate(entry.id, {
      onSuccess: (answer) => notifications.show({ color: 'green', message: answer.message ?? um.undone }),
      onError: (error) => notifications.show({ color: 'red', message: failureMessage(error, um.failed) }),
    });

  return (
    <Button
      size="xs"
      variant="light"
      loading={undo.isPending}
      leftSection={
        kind === 'restore' ? <IconRestore size={16} aria-hidden /> : <IconArrowBackUp size={16} aria-hidden />
      }
      onClick={run}
    >
      {kind === 'restore' ? 'Restore' : 'Undo'}
    </Button>
  );
}
