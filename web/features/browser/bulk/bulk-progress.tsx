import { useEffect, useRef } from 'react';
import { Button, Group, Paper, Portal, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowBackUp } from '@tabler/icons-react';
import { JobProgress } from '#web/ui/job-progress.tsx';
import { useQueryClient } from '@tanstack/react-query';
import type { BulkStatus } from '#common/contract/bulk.ts';
import { failureMessage } from '#web/api/failure-message.ts';
import { useBulkCancel } from '#web/api/sql/bulk-cancel.ts';
import { useBulkStatus, type BulkJobRef } from '#web/api/sql/bulk-status.ts';
import { queryKeys } from '#web/api/query-keys.ts';
import { timeLeftText } from '#web/features/browser/export/export-progress-text.ts';
import classes from '#web/features/browser/export/export.module.css';
import { secondsLeft, setBulkJob, updateBulkJob, useBulkJob, type BulkJob } from './bulk-job.ts';
import { countText, rowsText } from './bulk-text.ts';
import { undoAsJobMessages, useUndoAsJob } from './undo-as-job.tsx';

export const bulkProgressMessages = {
  failed: 'The bulk change failed.',
  undoFailed: 'Failed to undo the bulk change.',
  cancelled: (done: number) =>
    `The bulk change was cancelled: ${rowsText(done)} changed before are kept and audited, and can be undone.`,
  undone: undoAsJobMessages.undone,
} as const;

/** The progress line: "Starting…", then "42% · 4,200 of 10,000 rows · about 2 min left". */
export function bulkProgressText(job: Pick<BulkJob, 'startedAt' | 'status'>, now = Date.now()): string {
  const status = job.status;
  if (!status || status.state === 'queued') return 'Starting…';
  const left = secondsLeft(job, now);
  return [
    `${status.percentageCompleted}%`,
    `${countText(status.done)} of ${rowsText(status.total)}`,
    ...(left === null ? [] : [timeLeftText(left)]),
  ].join(' · ');
}

/**
 * The running bulk change (or its undo), in the export's panel at the bottom of the window: the progress, rows done
 * of the total, the time left and Cancel. At its end a toast: the count and Undo (done), what was kept (cancelled),
 * or the job's error as the server wrote it (failed); the table's pages are read again.
 */
export function BulkJobPanel() {
  const job = useBulkJob();
  const queryClient = useQueryClient();
  const status = useBulkStatus(job?.job ?? null);
  const cancel = useBulkCancel();
  const { undo } = useUndoAsJob();
  const ended = useRef<string | null>(null);

  const undoChange = (ref: BulkJobRef, auditId: number, table: string) =>
    void undo(ref, auditId, `Undoing the bulk change of ${table}`, bulkProgressMessages.undoFailed);

  const finish = (ended: BulkJob, final: BulkStatus) => {
    const ref = ended.job;
    setBulkJob(null);
    void queryClient.invalidateQueries({ queryKey: queryKeys.sql.table(ref) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.admin.audit(), refetchType: 'none' });
    const table = `${ref.schema}.${ref.table}`;
    if (final.state === 'done' && ended.kind === 'undo') {
      notifications.show({ color: 'green', message: bulkProgressMessages.undone(final.done) });
    } else if (final.state === 'done' || final.state === 'cancelled') {
      const auditId = final.auditId;
      const id = `bulk-${ref.id}`;
      notifications.show({
        id,
        color: final.state === 'done' ? 'green' : 'yellow',
        autoClose: auditId === null ? 6000 : 20_000,
        message: (
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text size="sm">
              {final.state === 'done'
                ? `${ended.verb} ${rowsText(final.done)} of ${table}.`
                : bulkProgressMessages.cancelled(final.done)}
            </Text>
            {auditId !== null && ended.kind === 'change' && final.done > 0 && (
              <Button
                size="xs"
                variant="light"
                leftSection={<IconArrowBackUp size={14} aria-hidden="true" />}
                onClick={() => {
                  notifications.hide(id);
                  undoChange(ref, auditId, table);
                }}
              >
                Undo
              </Button>
            )}
          </Group>
        ),
      });
    } else {
      notifications.show({
        color: 'red',
        autoClose: false,
        message: final.error ?? bulkProgressMessages.failed,
      });
    }
  };

  const data = status.data;
  useEffect(() => {
    if (!job || !data) return;
    if (data.inProgress) {
      if (job.status !== data) updateBulkJob(job.job.id, { status: data });
      return;
    }
    if (ended.current === job.job.id) return;
    ended.current = job.job.id;
    finish(job, data);
  });
  const error = status.error;
  useEffect(() => {
    if (!job || !error || ended.current === job.job.id) return;
    ended.current = job.job.id;
    notifications.show({
      color: 'red',
      autoClose: false,
      message: failureMessage(error, bulkProgressMessages.failed),
    });
    setBulkJob(null);
  });

  if (!job) return null;
  const text = bulkProgressText(job);
  const measured = job.status !== null && job.status.state !== 'queued';
  const percent = job.status?.percentageCompleted ?? 0;
  const stop = () => {
    updateBulkJob(job.job.id, { cancelling: true });
    cancel.mutateAsync(job.job).then(
      () => undefined,
      (failure: unknown) => {
        notifications.show({ color: 'red', message: failureMessage(failure, bulkProgressMessages.failed) });
        updateBulkJob(job.job.id, { cancelling: false });
      },
    );
  };
  return (
    <Portal>
      <Paper
        component="section"
        aria-label="Bulk change"
        className={classes.panel}
        withBorder
        shadow="md"
        p="sm"
      >
        <Text size="sm" fw={600} lineClamp={2} mb={6} style={{ overflowWrap: 'anywhere' }}>
          {job.title}
        </Text>
        <JobProgress
          label="Bulk change progress"
          text={text}
          percent={measured ? percent : null}
          cancel={
            job.kind === 'change' ? { label: 'Cancel', onClick: stop, disabled: job.cancelling } : undefined
          }
        />
      </Paper>
    </Portal>
  );
}
