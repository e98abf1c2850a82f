import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes one message to `$DATA_DIR/outbox/` as `<time>-<random><extension>`, readable by the owner only (it holds
 * codes), and answers the file's path. The time is ISO 8601 with `-` for `:` so the name is valid on every file
 * system and the files sort by time.
 */
export async function writeToOutbox(
  dataDir: string,
  extension: string,
  content: string | Buffer,
  now = new Date(),
): Promise<string> {
  const folder = path.join(dataDir, 'outbox');
  await fs.mkdir(folder, { recursive: true, mode: 0o700 });
  const name = `${now.toISOString().replaceAll(':', '-')}-${randomBytes(6).toString('hex')}${extension}`;
  const file = path.join(folder, name);
  // `wx`: never overwrite; mode applies on creation (the umask can only narrow it further).
  await fs.writeFile(file, content, { mode: 0o600, flag: 'wx' });
  return file;
}
