import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDbui } from '#server/test/dbui-command.ts';
import { createPostgresDatabase, type TestDatabase } from '#server/test/server-databases.ts';
import { tempDir } from '#server/test/temp-dir.ts';

/*
 * `dbui migrate`, `admin create` and `backup` on a PostgreSQL app store (decision 0057): the built command line as
 * a child process against a database of its own. The backup's pg_dump line is run as printed, when this machine
 * has pg_dump.
 */

const hasPgDump = spawnSync('pg_dump', ['--version']).status === 0;

describe('dbui on a PostgreSQL app store', () => {
  const dir = tempDir('dbui-cli-pg-');
  let database: TestDatabase;
  let env: Record<string, string>;
  const dbui = (args: string[], input?: string) => runDbui(args, { cwd: dir.path, env, input });

  beforeAll(async () => {
    database = await createPostgresDatabase('dbui_cli');
    env = { DATA_DIR: path.join(dir.path, 'data'), APP_DB_URL: database.url };
  });
  afterAll(async () => {
    await database?.drop();
    dir.remove();
  });

  it('migrates it, then works on it', async () => {
    const refused = await dbui(['user', 'unlock', 'ann']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^dbui: The app store needs \d+ migrations of this version/);

    const migrated = await dbui(['migrate']);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toMatch(
      /^Applied \d+ migrations to the app store \(postgres:\/\/.+\): 0001-initial, /,
    );
    expect((await dbui(['migrate'])).stdout).toMatch(/is up to date\.\n$/);

    const created = await dbui(
      ['admin', 'create', '--username', 'ann', '--email', 'ann@example.com', '--password-stdin'],
      'Fresh#Pass42\n',
    );
    expect(created.code, created.stderr).toBe(0);
    const unlocked = await dbui(['user', 'unlock', 'ann']);
    expect(unlocked.stdout).toBe('ann was not locked; their failed checks (0) start again from 0.\n');
  });

  it('backup prints the pg_dump line to run, which makes a dump of it', async () => {
    const file = path.join(dir.path, 'app.dump');
    const run = await dbui(['backup', file]);
    expect(run.code, run.stderr).toBe(0);
    const line = /^ {2}(pg_dump .+)$/m.exec(run.stdout)?.[1];
    expect(line, run.stdout).toBe(`pg_dump --format=custom --file=${file} --dbname=${database.url}`);
    expect(fs.existsSync(file)).toBe(false);
    if (!hasPgDump) return;
    const dumped = spawnSync('sh', ['-c', line!], { encoding: 'utf8' });
    expect(dumped.status, dumped.stderr).toBe(0);
    const listed = spawnSync('pg_restore', ['--list', file], { encoding: 'utf8' });
    expect(listed.stdout).toContain('TABLE public users');
  });
});
