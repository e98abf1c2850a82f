import { useCallback, useEffect, useSyncExternalStore } from 'react';
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

/*
 * The job lives outside the component: the search form (and the Export button in it) mounts afresh for each table,
 * and a job started on one table must keep its progress, its one-at-a-time lock, its toast and its download when
 * the person moves to another. One job per tab, as the server allows one per person.
 */
let current: ExportJobState = idleExport;
/** The job whose end was handled (toast, download), so no later render or mount handles it again. */
let handledJob: string | null = null;
const listeners = new Set<() => void>();

function dispatch(action: ExportJobAction): void {
  const next = exportJobReducer(current, action);
  if (next === current) return;
  current = next;
  for (const listener of listeners) listener();
}
function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
const snapshot = () => current;

/** Back to idle (tests; nothing else needs it). */
export function resetExportJob(): void {
  current = idleExport;
  handledJob = null;
  for (const listener of listeners) listener();
}

/** The tab's export job: start, progress, cancel; the toasts and the download happen here. */
export function useExportJob() {
  const state = useSyncExternalStore(subscribe, snapshot, snapshot);
  const { mutateAsync: startMutate } = useStartExport();
  const { mutateAsync: cancelMutate } = useCancelExport();
  const polling = state.phase === 'running' && !state.cancelling ? state.job : null;
  const status = useExportStatus(polling, state.pollDue);

  const jobId = state.job?.id ?? null;
  useEffect(() => {
    if (state.phase !== 'running' || state.pollDue) return;
    const timer = setTimeout(() => dispatch({ type: 'pollDue' }), EXPORT_POLL_DELAY_MS);
    return () => clearTimeout(timer);
  }, [state.phase, state.pollDue, jobId]);

  const data = status.data;
  useEffect(() => {
    if (!data || data.id !== jobId || handledJob === data.id) return;
    if (data.inProgress) {
      dispatch({ type: 'progress', status: data });
      return;
    }
    handledJob = data.id;
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
    if (!error || jobId === null || handledJob === jobId) return;
    handledJob = jobId;
    const message = failureMessage(error, browserMessages.exportFailed);
    showFailure(message);
    dispatch({ type: 'failed', message });
  }, [error, jobId]);

  // The calls' answers are awaited, not given as mutate callbacks: those are dropped when the button unmounts.
  const start = useCallback(
    (request: ExportRequest) => {
      if (isExportBusy(current)) return;
      dispatch({ type: 'start', format: request.format });
      startMutate(request).then(
        (result) => {
          const { db, schema, table } = request;
          dispatch({ type: 'started', job: { db, schema, table, id: result.data.id } });
        },
        (failure: unknown) => {
          // 409: 'An export is already running: wait for it to finish or cancel it.'
          const message = failureMessage(failure, browserMessages.exportFailed);
          showFailure(message);
          dispatch({ type: 'failed', message });
        },
      );
    },
    [startMutate],
  );

  const cancel = useCallback(() => {
    const job = current.job;
    if (current.phase !== 'running' || current.cancelling || !job) return;
    dispatch({ type: 'cancelling' });
    cancelMutate(job).then(
      (result) => {
        if (result.data.state !== 'cancelled') {
          // It ended first (a Cancel clicked as it finished): nothing was cancelled, and the toast is the export's
          // own. Polling resumes and its read says how it ended (done brings the download link).
          dispatch({ type: 'cancelFailed' });
          return;
        }
        handledJob = job.id;
        notifications.show({ message: exportMessages.cancelled });
        dispatch({ type: 'cancelled' });
      },
      (failure: unknown) => {
        // The call itself failed (the network, the server): the export goes on, and polling resumes.
        showFailure(failureMessage(failure, browserMessages.exportFailed));
        dispatch({ type: 'cancelFailed' });
      },
    );
  }, [cancelMutate]);

  return { state, busy: isExportBusy(state), start, cancel };
}
