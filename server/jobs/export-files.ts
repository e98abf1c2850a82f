import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { exportFormat, type ExportFormat } from '#common/contract/exports.ts';

/*
 * Where export files live: `{EXPORT_DIR}/{job id}.{extension}`, nowhere else (EXPORT_DIR defaults to
 * `$DATA_DIR/exports`; instances share it, so any instance serves a file any instance's worker wrote: the job id and
 * the format, both in the job's row, are all a download needs). The name on disk is built only from a UUID and a
 * fixed extension, never from input; the name people see (table and time) is given in Content-Disposition when the
 * file is downloaded.
 */

/** How each format is served. */
export const exportContentTypes: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** A job id: a UUID as the start call made it (also what the routes accept). */
export const exportId = z.uuid({ error: 'The export id must be the UUID the export call answered.' });

/** The default export folder: `exports` under the data folder (EXPORT_DIR unset). */
export function exportsFolder(dataDir: string): string {
  return path.join(path.resolve(dataDir), 'exports');
}

/** The file of an export in the export folder `exportDir`. Throws unless `id` is a UUID and the path stays inside
 * the folder. */
export function exportFileIn(exportDir: string, id: string, format: ExportFormat): string {
  const folder = path.resolve(exportDir);
  const file = path.join(folder, `${exportId.parse(id)}.${exportFormat.parse(format)}`);
  if (path.dirname(file) !== folder) throw new Error('An export file must be in the exports folder.');
  return file;
}

/** The file of an export in the default folder under `dataDir` (for tools and tests that leave EXPORT_DIR unset). */
export function exportFilePath(dataDir: string, id: string, format: ExportFormat): string {
  return exportFileIn(exportsFolder(dataDir), id, format);
}

/** Removes an export's file if it is there. */
export async function removeExportFile(exportDir: string, id: string, format: string): Promise<void> {
  const checked = exportFormat.safeParse(format);
  if (!checked.success) return;
  await fs.promises.rm(exportFileIn(exportDir, id, checked.data), { force: true });
}

/** The name of an export's file: a UUID and one of the formats' extensions. */
const exportFileName = new RegExp(
  `^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\\.(${exportFormat.options.join('|')})$`,
);

/** The export files in the folder that belong to no job in `known` and are older than `olderThanMs`: left by a
 * job whose row is gone. Only names an export is written under count: a shared folder's other files are never
 * touched. */
export async function orphanExportFiles(
  exportDir: string,
  known: Set<string>,
  olderThanMs: number,
): Promise<string[]> {
  const folder = path.resolve(exportDir);
  let names: string[];
  try {
    names = await fs.promises.readdir(folder);
  } catch {
    return [];
  }
  const orphans: string[] = [];
  for (const name of names) {
    const id = exportFileName.exec(name)?.[1];
    if (id === undefined || known.has(id)) continue;
    const file = path.join(folder, name);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (stat?.isFile() && Date.now() - stat.mtimeMs > olderThanMs) orphans.push(file);
  }
  return orphans;
}

/** The name people see: `{table}-{YYYYMMDD-HHMMSS}.{extension}`, the time in UTC, characters that file systems or
 * headers refuse replaced by _. */
export function downloadName(table: string, createdAt: string, format: ExportFormat): string {
  const stamp = createdAt
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '')
    .replace('T', '-')
    .replace(/Z$/, '');
  // eslint-disable-next-line no-control-regex
  const safe = table.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]/g, '_').slice(0, 150) || 'export';
  return `${safe}-${stamp}.${format}`;
}
