import { useSyncExternalStore } from 'react';
import type { BulkStatus } from '#common/contract/bulk.ts';
import type { BulkJobRef } from '#web/api/sql/bulk-status.ts';

/*
 * The tab's running bulk change, or the undo of one (issue 38). It lives outside the components, as the export job
 * does (export/use-export-job.ts): the selection and its bar go when the person moves to another table or filter,
 * and the job's progress, its Cancel and its end must stay. One at a time: the Run button waits for the panel.
 */

export interface BulkJob {
  /** The change itself, or its undo (no Cancel: the undo is short, and stopping it halfway helps nobody). */
  kind: 'change' | 'undo';
  job: BulkJobRef;
  /** The panel's title: "Setting values on public.track", "Undoing the bulk change of public.track". */
  title: string;
  /** What the done toast says before its count: "Values set on", "Deleted". */
  verb: string;
  /** When it started (Date.now()), for the time left. */
  startedAt: number;
  status: BulkStatus | null;
  cancelling: boolean;
}

let current: BulkJob | null = null;
const listeners = new Set<() => void>();

export function setBulkJob(next: BulkJob | null): void {
  current = next;
  for (const listener of listeners) listener();
}
/** Updates the running job (ignored when it is no longer the one running). */
export function updateBulkJob(id: string, change: Partial<BulkJob>): void {
  if (current?.job.id === id) setBulkJob({ ...current, ...change });
}
function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
/** The tab's bulk job now (null: none), outside React. */
export const bulkJobNow = (): BulkJob | null => current;
const snapshot = bulkJobNow;

/** The tab's bulk job (null: none). */
export function useBulkJob(): BulkJob | null {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/** Seconds left at the rate so far, or null before the first measurement. */
export function secondsLeft(job: Pick<BulkJob, 'startedAt' | 'status'>, now = Date.now()): number | null {
  const status = job.status;
  if (!status || status.done <= 0 || status.total <= status.done) return null;
  const elapsed = (now - job.startedAt) / 1000;
  return Math.max(0, (elapsed * (status.total - status.done)) / status.done);
}
