import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { healthMessages } from '#common/messages.ts';
import { repoRoot } from './test/test-app.ts';
import { tempDir } from './test/temp-dir.ts';

/*
 * The process as an operator runs it: configuration errors, start-up on embedded defaults, the request log, the
 * setup link, and a clean stop on SIGTERM. Runs the TypeScript entry through tsx so no build is needed.
 */

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function start(
  env: Record<string, string>,
  command = [process.execPath, '--import', 'tsx', 'server/main.ts'],
): Started {
  const [file = '', ...args] = command;
  const child = spawn(file, args, {
    cwd: repoRoot,
    // DOTENV_PATH: a .env file of the checkout stays out of these starts (a test names its own).
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DOTENV_PATH: '/dev/null', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

// A start through tsx transpiles the whole server: 10-20 s when the machine is busy with other test files, over a
// minute beside a CPU hog. The ceilings (here and each test's) only end a wait that would never end (vitest.config.ts).
const CEILING_MS = 300_000;
async function waitFor<T>(check: () => T | undefined, what: string, ms = CEILING_MS): Promise<T> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const value = check();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the server process', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());

  it('refuses a malformed variable with one line naming it, and exits 1', async () => {
    const run = start({ PORT: 'http', DATA_DIR: dir.path });
    expect(await run.exited).toBe(1);
    expect(run.output()).toBe('DBUI cannot start: PORT: "http" must be a whole number from 0 to 65535.\n');
  });

  it('reads a .env file, and says so of a malformed value read from it', async () => {
    const dotenv = path.join(dir.path, 'bad.env');
    fs.writeFileSync(dotenv, 'PORT=http\n');
    const run = start({ DATA_DIR: dir.path, DOTENV_PATH: dotenv });
    expect(await run.exited).toBe(1);
    expect(run.output()).toBe(
      `DBUI cannot start: PORT: "http" must be a whole number from 0 to 65535 (read from ${dotenv}).\n`,
    );
  });

  it('refuses an app store it cannot reach with one line, and exits 1', async () => {
    const run = start({ DATA_DIR: dir.path, APP_DB_URL: 'postgres://postgres@127.0.0.1:1/none' });
    expect(await run.exited).toBe(1);
    expect(run.output()).toMatch(
      /^DBUI cannot start: APP_DB_URL: the app store at postgres:\/\/postgres@127\.0\.0\.1:1\/none cannot be used: .+\n$/,
    );
  });

  it(
    'starts on embedded defaults with the demo database, logs requests with ids, prints the setup link, stops on SIGTERM',
    async () => {
      const run = start({ DATA_DIR: dir.path, PORT: '0', LOG_LEVEL: 'info' });
      try {
        const ready = await waitFor(
          () => jsonLines(run.output()).find((l) => l.msg === 'DBUI is ready'),
          'ready',
        );
        const url = String(ready.url);
        expect(ready.databases).toEqual(['demo (sqlite)']);
        expect(run.output()).toMatch(
          /No administrator yet\. Create one within 24 hours at:\n {2}http:\/\/127\.0\.0\.1:\d+\/setup\?token=[\w-]{43}\n/,
        );

        const health = await fetch(`${url}/api/health`);
        expect(health.status).toBe(200);
        const body = (await health.json()) as { data: { databases: unknown[] } };
        expect(body.data.databases).toEqual([{ name: 'demo', engine: 'sqlite', status: 'up' }]);

        const requestId = health.headers.get('x-request-id');
        const lines = await waitFor(() => {
          const mine = jsonLines(run.output()).filter((l) => l.requestId === requestId);
          return mine.length >= 2 ? mine : undefined;
        }, 'request log lines');
        expect(lines.map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
      } finally {
        run.child.kill('SIGTERM');
      }
      expect(await run.exited).toBe(0);
      expect(jsonLines(run.output()).map((l) => l.msg)).toContain('shut down');
    },
    CEILING_MS,
  );

  it(
    'creates the ADMIN_* administrator before it listens, so a server that answers can sign them in',
    async () => {
      const fresh = tempDir();
      const run = start({
        DATA_DIR: fresh.path,
        PORT: '0',
        LOG_LEVEL: 'info',
        ADMIN_USERNAME: 'admin',
        ADMIN_PASSWORD: 'Admin#12345',
        ADMIN_EMAIL: 'admin@example.com',
      });
      try {
        await waitFor(() => jsonLines(run.output()).find((l) => l.msg === 'DBUI is ready'), 'ready');
        const messages = jsonLines(run.output()).map((l) => String(l.msg));
        const created = messages.indexOf('created the first administrator from ADMIN_USERNAME');
        const listening = messages.findIndex((msg) => msg.startsWith('Server listening at'));
        expect(created).toBeGreaterThanOrEqual(0);
        expect(listening).toBeGreaterThan(created);
        run.child.kill('SIGTERM');
        expect(await run.exited).toBe(0);
      } finally {
        run.child.kill('SIGKILL');
        fresh.remove();
      }
    },
    CEILING_MS,
  );

  it(
    'finishes a request in flight before it stops on SIGTERM',
    async () => {
      // A "database" that accepts connections and never answers keeps the health check busy for its 3 s ping limit.
      const silent = net.createServer(() => undefined);
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const port = (silent.address() as net.AddressInfo).port;
      const run = start({
        DATA_DIR: dir.path,
        PORT: '0',
        LOG_LEVEL: 'info',
        DATABASES: `silent=mysql://root@127.0.0.1:${port}/x`,
      });
      try {
        const ready = await waitFor(
          () => jsonLines(run.output()).find((l) => l.msg === 'DBUI is ready'),
          'ready',
        );
        const inFlight = fetch(`${String(ready.url)}/api/health`);
        await waitFor(
          () => jsonLines(run.output()).find((l) => l.msg === 'incoming request'),
          'the request to arrive',
        );
        run.child.kill('SIGTERM');
        const health = await inFlight;
        expect(health.status).toBe(503);
        const body = (await health.json()) as { data: { databases: { status: string; error: string }[] } };
        expect(body.data.databases[0]).toMatchObject({
          status: 'down',
          error: healthMessages.databaseDown,
        });
        expect(await run.exited).toBe(0);
      } finally {
        run.child.kill('SIGKILL');
        silent.close();
      }
    },
    CEILING_MS,
  );

  // npm runs a script through `sh -c`; a SIGTERM to npm reached sh, which died and left the server running (seen on
  // Debian with npm 11). `exec` makes the server the script's own process, so npm's forwarded signal reaches it.
  const built = fs.existsSync(path.join(repoRoot, 'dist/server/main.js'));
  it.skipIf(!built)(
    'stops cleanly when `npm start` is sent SIGTERM (the built server)',
    async () => {
      const fresh = tempDir();
      const run = start({ DATA_DIR: fresh.path, PORT: '0', LOG_LEVEL: 'info' }, ['npm', 'start', '--silent']);
      let serverPid = 0;
      try {
        const ready = await waitFor(
          () => jsonLines(run.output()).find((l) => l.msg === 'DBUI is ready'),
          'ready',
        );
        serverPid = Number(ready.pid);
        run.child.kill('SIGTERM');
        await run.exited;
        await waitFor(
          () => (jsonLines(run.output()).some((l) => l.msg === 'shut down') ? true : undefined),
          'the server to shut down',
        );
        await waitFor(() => {
          try {
            process.kill(serverPid, 0);
            return undefined;
          } catch {
            return true;
          }
        }, 'the server process to exit');
      } finally {
        run.child.kill('SIGKILL');
        // On a failure the server may outlive npm: never leave it running.
        try {
          if (serverPid) process.kill(serverPid, 'SIGKILL');
        } catch {
          // gone already, as it should be
        }
        fresh.remove();
      }
    },
    CEILING_MS,
  );
});
