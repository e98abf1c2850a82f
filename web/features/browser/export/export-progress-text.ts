import type { ExportFormat, ExportStatus } from '#common/contract/exports.ts';

/** The formats of the Export menu, by their menu labels (the server's csv, jsonl and xlsx). */
export const exportFormatLabels: Record<ExportFormat, string> = {
  csv: 'CSV',
  jsonl: 'JSON Lines',
  xlsx: 'Excel (XLSX)',
};

export const STARTING = 'Starting…';

/** The time left as a person reads it: "less than a minute left", "about 2 min left", "about 3 h left". */
export function timeLeftText(seconds: number): string {
  if (seconds < 60) return 'less than a minute left';
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `about ${minutes} min left`;
  return `about ${Math.round(seconds / 3600)} h left`;
}

/** The progress line: "Starting…" before the first measurement, then "42% · about 2 min left". */
export function progressText(status: ExportStatus | null): string {
  if (!status || status.secondsRemaining === null) {
    return status && status.percentageCompleted > 0 ? `${status.percentageCompleted}%` : STARTING;
  }
  return `${status.percentageCompleted}% · ${timeLeftText(status.secondsRemaining)}`;
}
