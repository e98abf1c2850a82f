/*
 * npx tsx bench/xlsx-import.ts — how fast an XLSX import's file is read (docs/decisions/0071-xlsx-imports.md): a
 * workbook of BENCH_ROWS rows (default 100,000) of six columns (a whole number, a text repeated from a few hundred, a
 * unique text, a decimal, a date and a boolean) is written by exceljs's streaming writer as a spreadsheet writes one
 * (shared strings, a date style), then read through by the import's reader (`openFileReader`, what the preview and
 * the runs use) and through the upload's check (`readyToRead`, which reads the sheet once more). Prints the times,
 * rows a second and the peak resident memory. Not a test.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { openFileReader, readyToRead } from '#server/features/imports/import-files.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const folder = fs.mkdtempSync(path.join(fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), 'xlsx-bench-'));
const file = path.join(folder, 'bench.xlsx');

try {
  let started = performance.now();
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: file,
    useSharedStrings: true,
    useStyles: true,
  });
  const sheet = writer.addWorksheet('Rows');
  sheet.columns = [
    { header: 'Id', key: 'id' },
    { header: 'Category', key: 'category' },
    { header: 'Label', key: 'label' },
    { header: 'Amount', key: 'amount' },
    { header: 'Day', key: 'day', style: { numFmt: 'yyyy-mm-dd' } },
    { header: 'Active', key: 'active' },
  ];
  for (let i = 1; i <= ROWS; i++)
    sheet
      .addRow({
        id: i,
        category: `category ${i % 300}`,
        label: `label number ${i}`,
        amount: Math.round(i * 137.31) / 100,
        day: new Date(Date.UTC(2000, 0, 1) + (i % 9000) * 86_400_000),
        active: i % 3 === 0,
      })
      .commit();
  sheet.commit();
  await writer.commit();
  const size = fs.statSync(file).size;
  console.log(
    `wrote ${ROWS.toLocaleString('en')} rows, ${(size / 1024 ** 2).toFixed(1)} MiB, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const options = {
    format: 'xlsx' as const,
    delimiter: ',',
    quote: '"',
    header: true,
    encoding: 'utf-8' as const,
  };
  started = performance.now();
  const ready = await readyToRead(file, options);
  const checked = (performance.now() - started) / 1000;
  console.log(`upload's check (the sheet read once): ${checked.toFixed(2)} s`);

  started = performance.now();
  const reader = openFileReader(file, ready);
  let records = 0;
  let last: unknown = null;
  for await (const record of reader.records) {
    records += 1;
    last = record.values;
  }
  const read = (performance.now() - started) / 1000;
  console.log(
    `read ${records.toLocaleString('en')} records in ${read.toFixed(2)} s (${Math.round(records / read).toLocaleString('en')} rows/s); last ${JSON.stringify(last)}`,
  );
  console.log(`peak resident memory ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
} finally {
  fs.rmSync(folder, { recursive: true, force: true });
}
