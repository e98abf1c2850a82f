import { z } from 'zod';
import { orderBy, tableParams } from './sql.ts';

/*
 * Exports (spec 000 §3 "Export status", §4 Export, §7): start, status, cancel and the download link. The status
 * keeps the spec's fields (inProgress, percentageCompleted, percentageRemaining, secondsRemaining, data) and adds
 * what a careful client can use.
 */

export const exportFormats = ['csv', 'jsonl', 'xlsx'] as const;
export const exportFormat = z.enum(exportFormats, { error: 'format must be csv, jsonl or xlsx.' });
export type ExportFormat = z.infer<typeof exportFormat>;

export const exportStates = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;

const uuid = z.uuid({ error: 'The export id must be the UUID the export call answered.' });

/** `?orderBy=&format=&bom=` of the start call. */
export const exportQuery = z.object({
  orderBy,
  format: exportFormat.default('csv').describe('csv (default), jsonl (JSON Lines) or xlsx'),
  bom: z
    .stringbool({ error: 'bom must be true or false.' })
    .default(false)
    .describe('CSV only: start the file with the UTF-8 byte-order mark (for Excel)'),
});
export type ExportQuery = z.infer<typeof exportQuery>;

export const exportParams = tableParams.extend({ id: uuid });
export type ExportParams = z.infer<typeof exportParams>;

/** The start call's answer: the job to poll. */
export const exportStarted = z.object({ id: z.string().describe('The export job id (a UUID)') });

export const exportStatus = z.object({
  id: z.string(),
  state: z.enum(exportStates),
  inProgress: z.boolean().describe('True while the export is queued or running'),
  percentageCompleted: z
    .number()
    .int()
    .describe(
      'Rows written over the rows to write, 0 to 100 (100 only when done). When rowsTotalIsEstimate is true the total is an estimate or a capped count, so this is an estimate too and stays at 99 until the export is done',
    ),
  percentageRemaining: z.number().int().describe('100 - percentageCompleted'),
  secondsRemaining: z
    .number()
    .nullable()
    .describe('From the measured rows per second; null until measured; 0 when done'),
  data: z.string().nullable().describe('The file name, when done'),
  url: z
    .string()
    .nullable()
    .describe(
      'When done: /api/exports/{id}/file?t=…, a download link that works once, for 5 minutes, needs no bearer header (it opens in a new tab) and is new on each status read',
    ),
  format: exportFormat,
  rowsWritten: z.number().int(),
  rowsTotal: z.number().int().nullable(),
  rowsTotalIsEstimate: z.boolean(),
  error: z.string().nullable().describe('Why the export failed or stopped'),
});
export type ExportStatus = z.infer<typeof exportStatus>;

export const exportFileParams = z.object({ id: uuid });
export const exportFileQuery = z.object({
  t: z
    .string({ error: 'The download link is missing its token (t).' })
    .regex(/^[A-Za-z0-9_-]{43}$/, 'The download link token (t) is not valid.'),
});
