import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GUARDED, GUARDIAN_EXTRA_MS, SHUTDOWN_GRACE_MS } from './forced-exit.ts';

/*
 * dist/server/main.js, what `npm start`, the systemd unit and the container run: the guardian. It starts the server
 * (dist/server/server.js, bundled from server/main.ts) as its one child, on the same stdin, stdout and stderr, passes
 * every SIGTERM, SIGINT and SIGHUP on to it, and kills it with SIGKILL SHUTDOWN_GRACE_MS + GUARDIAN_EXTRA_MS (11 s)
 * after the first, whatever holds the server's main thread (a synchronous SQLite call waiting on a lock, a write to a
 * pipe nobody reads, a loop that never yields). It then ends as the server ended: the same exit code, or killed by
 * the same signal. It loads nothing but Node's own modules and does nothing else, so its own thread is always free
 * to act; it costs a second Node process (about 7 MB of its own memory beside the server's; the rest is Node's code,
 * shared). Why a process: docs/decisions/0059-node-versions-and-dependencies.md (amending 0020).
 */

const server = path.join(path.dirname(fileURLToPath(import.meta.url)), 'server.js');
const child = spawn(process.execPath, [...process.execArgv, server, ...process.argv.slice(2)], {
  // The IPC channel tells the server when this process is gone (forced-exit.ts, followGuardian).
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  env: { ...process.env, [GUARDED]: '1' },
});

let deadline: NodeJS.Timeout | undefined;
const passOn = (signal: NodeJS.Signals) => {
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  deadline ??= setTimeout(() => child.kill('SIGKILL'), SHUTDOWN_GRACE_MS + GUARDIAN_EXTRA_MS);
};
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => passOn(signal));

child.on('error', (error) => {
  process.stderr.write(`DBUI cannot start: ${error.message}\n`);
  process.exit(1);
});

child.on('exit', (code, signal) => {
  clearTimeout(deadline);
  if (signal === null) process.exit(code ?? 1);
  // Ended by a signal: end by the same one, so a supervisor sees what happened to the server. As PID 1 (in a
  // container) a process ignores a signal it sends itself without a handler; it exits with the shell's code then.
  process.removeAllListeners(signal);
  process.kill(process.pid, signal);
  setTimeout(() => process.exit(128 + (constants.signals[signal] ?? 0)), 100);
});
