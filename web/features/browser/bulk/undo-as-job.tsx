import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { failureMessage } from '#web/api/failure-message.ts';
import { useUndoAuditEntry } from '#web/api/admin/undo-audit-entry.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import type { TableRef } from '#web/api/sql/paths.ts';
import { setBulkJob } from './bulk-job.ts';
import { rowsText } from './bulk-text.ts';

export const undoAsJobMessages = {
  undone: (done: number) => `The bulk change was undone: ${rowsText(done)} put back.`,
} as const;

/**
 * Undoes an audit entry that is a batch (a bulk change or an import, decisions 0068 and 0070): the undo call answers
 * a job, which becomes the tab's bulk job, so its progress shows in the panel at the bottom of the table (titled
 * `title`); an entry undone at once (no job) says so in a toast. A refusal (rows changed since, a right lost) is a
 * toast that stays. Answers whether the undo started.
 */
export function useUndoAsJob(): {
  undo: (ref: TableRef, auditId: number, title: string, failed: string) => Promise<boolean>;
  pending: boolean;
} {
  const queryClient = useQueryClient();
  const mutation = useUndoAuditEntry();
  const undo = (ref: TableRef, auditId: number, title: string, failed: string) =>
    mutation.mutateAsync(auditId).then(
      (answer) => {
        const jobId = answer.data.jobId;
        if (!jobId) {
          notifications.show({ color: 'green', message: answer.message ?? undoAsJobMessages.undone(0) });
          void queryClient.invalidateQueries({ queryKey: queryKeys.sql.table(ref) });
          return true;
        }
        setBulkJob({
          kind: 'undo',
          job: { db: ref.db, schema: ref.schema, table: ref.table, id: jobId },
          title,
          verb: 'Put back',
          startedAt: Date.now(),
          status: null,
          cancelling: false,
        });
        return true;
      },
      (error: unknown) => {
        notifications.show({ color: 'red', autoClose: false, message: failureMessage(error, failed) });
        return false;
      },
    );
  return { undo, pending: mutation.isPending };
}
