import { useCallback, useEffect, useReducer, useRef } from 'react';
import { notifications } from '@mantine/notifications';
import type { ExportFormat, ExportStatus } from '#common/contract/exports.ts';
import { EXPORT_POLL_DELAY_MS } from '#common/limits.ts';
import { browserMessages, exportMessages } from '#common/messages.ts';
import { failureMessage } from '#web/api/failure-message.ts';
import { useCancelExport } from '#web/api/sql/export-cancel.ts';
import { type ExportRequest, useStartExport } from '#web/api/sql/export-start.ts';
import { type ExportJobRef, useExportStatus } from '#web/api/sql/export-status.ts';
import { downloadExportFile } from './download-export-file.ts';

/*
 * One export's steps (spec 000 §4): idle → starting (the start call) → running (the first status read
 * EXPORT_POLL_DELAY_MS after the start, then every 2 s while inProgress) → done (toast and download), failed or
 * cancelled. Done, failed and cancelled allow a new export; starting and running do not (one at a time).
 */

export type ExportPhase = 'idle' | 'starting' | 'running' | 'done' | 'failed' | 'cancelled';

export interface ExportJobState {
  phase: ExportPhase;
  format: ExportFormat | null;
  /** The started job (running, and kept after it ends). */
  job: ExportJobRef | null;
  /** The first status read is due (EXPORT_POLL_DELAY_MS after the start). */
  pollDue: boolean;
  /** A cancel call is out: polling pauses until it answers. */
  cancelling: boolean;
  /** The last status read, null before the first. */
  status: ExportStatus | null;
  /** Why it failed (the sentence the toast showed). */
  message: string | null;
}

export type ExportJobAction =
  | { type: 'start'; format: ExportFormat }
  | { type: 'started'; job: ExportJobRef }
  | { type: 'pollDue' }
  | { type: 'progress'; status: ExportStatus }
  | { type: 'done'; status: ExportStatus }
  | { type: 'failed'; message: string }
  | { type: 'cancelling' }
  | { type: 'cancelFailed' }
  | { type: 'cancelled' };

export const idleExport: ExportJobState = {
  phase: 'idle',
  format: null,
  job: null,
  pollDue: false,
  cancelling: false,
  status: null,
  message: null,
};

/** True while an export is starting or running: no second one may start. */
export const isExportBusy = (state: ExportJobState) =>
  state.phase === 'starting' || state.phase === 'running';

export function exportJobReducer(state: ExportJobState, action: ExportJobAction): ExportJobState {
  switch (action.type) {
    case 'start':
      return isExportBusy(state) ? state : { ...idleExport, phase: 'starting', format: action.format };
    case 'started':
      return state.phase === 'starting' ? { ...state, phase: 'running', job: action.job } : state;
    case 'pollDue':
      return state.phase === 'running' ? { ...state, pollDue: true } : state;
    case 'progress':
      return state.phase === 'running' ? { ...state, status: action.status } : state;
    case 'done':
      return state.phase === 'running'
        ? { ...state, phase: 'done', status: action.status, cancelling: false }
        : state;
    case 'failed':
      return isExportBusy(state)
        ? { ...state, phase: 'failed', message: action.message, cancelling: false }
        : state;
    case 'cancelling':
      return state.phase === 'running' ? { ...state, cancelling: true } : state;
    case 'cancelFailed':
      return state.phase === 'running' ? { ...state, cancelling: false } : state;
    case 'cancelled':
      return state.phase === 'running' ? { ...state, phase: 'cancelled', cancelling: false } : state;
  }
}

const showFailure = (message: string) => notifications.show({ color: 'red', message });

/** The export job of one card: start, progress, cancel; the toasts and the download happen here. */
export function useExportJob() {
  const [state, dispatch] = useReducer(exportJobReducer, idleExport);
  const startExport = useStartExport();
  const cancelExport = useCancelExport();
  const polling = state.phase === 'running' && !state.cancelling ? state.job : null;
  const status = useExportStatus(polling, state.pollDue);
  // A finished job is handled once (toast, download), whatever re-renders follow.
  const handled = useRef<string | null>(null);

  const jobId = state.job?.id ?? null;
  useEffect(() => {
    if (state.phase !== 'running' || state.pollDue) return;
    const timer = setTimeout(() => dispatch({ type: 'pollDue' }), EXPORT_POLL_DELAY_MS);
    return () => clearTimeout(timer);
  }, [state.phase, state.pollDue, jobId]);

  const data = status.data;
  useEffect(() => {
    if (!data || data.id !== jobId || handled.current === data.id) return;
    if (data.inProgress) {
      dispatch({ type: 'progress', status: data });
      return;
    }
    handled.current = data.id;
    if (data.state === 'done' && data.url) {
      notifications.show({ color: 'green', message: browserMessages.exportCompleted });
      downloadExportFile(data.url, data.data);
      dispatch({ type: 'done', status: data });
    } else {
      const message = data.error ?? browserMessages.exportFailed;
      showFailure(message);
      dispatch({ type: 'failed', message });
    }
  }, [data, jobId]);

  // A failed or cancelled export answers its status read with isSuccess false and its reason as the message.
  const error = status.error;
  useEffect(() => {
    if (!error || jobId === null || handled.current === jobId) return;
    handled.current = jobId;
    const message = failureMessage(error, browserMessages.exportFailed);
    showFailure(message);
    dispatch({ type: 'failed', message });
  }, [error, jobId]);

  const { mutate: startMutate } = startExport;
  const start = useCallback(
    (request: ExportRequest) => {
      if (isExportBusy(state)) return;
      dispatch({ type: 'start', format: request.format });
      startMutate(request, {
        onSuccess: (result) => {
          const { db, schema, table } = request;
          dispatch({ type: 'started', job: { db, schema, table, id: result.data.id } });
        },
        onError: (failure) => {
          // 409: 'An export is already running: wait for it to finish or cancel it.'
          const message = failureMessage(failure, browserMessages.exportFailed);
          showFailure(message);
          dispatch({ type: 'failed', message });
        },
      });
    },
    [state, startMutate],
  );

  const { mutate: cancelMutate } = cancelExport;
  const cancel = useCallback(() => {
    const job = state.job;
    if (state.phase !== 'running' || state.cancelling || !job) return;
    dispatch({ type: 'cancelling' });
    cancelMutate(job, {
      onSuccess: (result) => {
        handled.current = job.id;
        notifications.show({ message: result.message ?? exportMessages.cancelled });
        dispatch({ type: 'cancelled' });
      },
      onError: (failure) => {
        // e.g. 409 'That export has already ended, so there is nothing to cancel.': polling resumes and reads
        // how it ended.
        showFailure(failureMessage(failure, browserMessages.exportFailed));
        dispatch({ type: 'cancelFailed' });
      },
    });
  }, [state, cancelMutate]);

  return { state, busy: isExportBusy(state), start, cancel };
}
