import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '#server/test/temp-dir.ts';
import { exportFileIn, exportFilePath, exportsFolder, orphanExportFiles } from './export-files.ts';

/*
 * The export folder may be shared storage (EXPORT_DIR, NFS or similar) holding other things too: files are named
 * only from the job id and the format, and the sweep of orphans touches nothing else.
 */

const hourAgo = new Date(Date.now() - 3600_000);

describe('export files in EXPORT_DIR', () => {
  const dirs: { remove(): void }[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) dir.remove();
  });

  it('are {id}.{format} in the folder given, and DATA_DIR/exports by default', () => {
    const id = randomUUID();
    expect(exportFileIn('/mnt/shared/exports', id, 'csv')).toBe(
      path.resolve(`/mnt/shared/exports/${id}.csv`),
    );
    expect(exportFilePath('/srv/dbui', id, 'xlsx')).toBe(path.resolve(`/srv/dbui/exports/${id}.xlsx`));
    expect(exportsFolder('/srv/dbui')).toBe(path.resolve('/srv/dbui/exports'));
    expect(() => exportFileIn('/mnt/shared/exports', '../app', 'csv')).toThrow();
    expect(() => exportFileIn('/mnt/shared/exports', id, 'exe' as 'csv')).toThrow();
  });

  it('the sweep of orphans takes only old export files without a job, never the folder’s other files', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const known = randomUUID();
    const orphan = randomUUID();
    const young = randomUUID();
    const files = {
      known: path.join(dir.path, `${known}.csv`),
      orphan: path.join(dir.path, `${orphan}.jsonl`),
      young: path.join(dir.path, `${young}.xlsx`),
      other: path.join(dir.path, 'notes.txt'),
      otherUuid: path.join(dir.path, `${randomUUID()}.txt`),
      upper: path.join(dir.path, `${randomUUID().toUpperCase()}.csv`),
    };
    for (const file of Object.values(files)) fs.writeFileSync(file, 'x');
    for (const [name, file] of Object.entries(files))
      if (name !== 'young') fs.utimesSync(file, hourAgo, hourAgo);
    fs.mkdirSync(path.join(dir.path, `${randomUUID()}.csv`));

    expect(await orphanExportFiles(dir.path, new Set([known]), 10 * 60 * 1000)).toEqual([files.orphan]);
    expect(await orphanExportFiles(path.join(dir.path, 'missing'), new Set(), 0)).toEqual([]);
  });
});
