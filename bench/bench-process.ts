import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

/* Processes a benchmark starts and measures (bench:http, bench:http-ab). */

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export const sleep = (time: number) => new Promise((resolve) => setTimeout(resolve, time));

/** A TCP port free on loopback now. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

/** SIGTERM, then waits for the process to exit. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * The DBUI server's own process for a process a benchmark started: `node dist/server/main.js` is the guardian
 * (server/guardian.ts), whose one child, dist/server/server.js, is the server that does the work, so memory and CPU
 * are read there. Any other process (the minimal servers, nginx) is its own answer.
 */
export function serverPidOf(pid: number): number {
  let children: string[];
  try {
    children = fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean);
  } catch {
    return pid;
  }
  for (const child of children) {
    try {
      if (fs.readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('server.js')) return Number(child);
    } catch {
      // Gone meanwhile.
    }
  }
  return pid;
}

/** A process's CPU time so far (user + system) in milliseconds, from /proc/<pid>/stat (clock ticks of 10 ms). */
export function cpuMs(pid: number): { user: number; system: number } {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
}

export interface Started {
  child: ChildProcess;
  origin: string;
  /** From spawn to the first 200 on each of the ready paths, in their order. */
  startMs: number[];
}

/** Spawns a server (in the repository's folder) and waits for a 200 on each of `readyPaths` in turn (polled every
 * 5 ms), timing each from the spawn. */
export async function startProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  port: number,
  readyPaths: string[],
  stdout: 'ignore' | number,
): Promise<Started> {
  const origin = `http://127.0.0.1:${port}`;
  const started = process.hrtime.bigint();
  const since = () => Number(process.hrtime.bigint() - started) / 1e6;
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', stdout, 'inherit'] });
  const startMs: number[] = [];
  for (const readyPath of readyPaths) {
    for (;;) {
      const answer = await fetch(`${origin}${readyPath}`).catch(() => null);
      if (answer?.status === 200) {
        await answer.arrayBuffer();
        startMs.push(since());
        break;
      }
      await answer?.arrayBuffer();
      if (child.exitCode !== null)
        throw new Error(`${args.at(-1)} exited (${child.exitCode}) before it answered`);
      if (since() > 60_000) {
        await stopProcess(child);
        throw new Error(`${args.at(-1)} did not answer ${readyPath} within 60 s`);
      }
      await sleep(5);
    }
  }
  return { child, origin, startMs };
}
