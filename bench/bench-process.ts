import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';

/* Processes a benchmark starts and measures (bench:http, bench:http-ab). */

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

/** A process's CPU time so far (user + system) in milliseconds, from /proc/<pid>/stat (clock ticks of 10 ms). */
export function cpuMs(pid: number): { user: number; system: number } {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
}
