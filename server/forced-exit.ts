import { constants } from 'node:os';
import { Worker } from 'node:worker_threads';

/** How long a stop may take: SIGTERM or SIGINT to the process gone. */
export const SHUTDOWN_GRACE_MS = 10_000;
/** The watchdog's own deadline comes this much later, so the main thread's orderly forced exit (which says why
 * in the log) goes first whenever it can run at all. */
const WATCHDOG_EXTRA_MS = 1_000;

/** The watchdog's side of a stop. */
export interface ForcedExit {
  /** Says the stop has begun (idempotent): the process is killed SHUTDOWN_GRACE_MS + 1 s later if still alive. */
  shutdownStarted(): void;
}

/*
 * The watchdog, in a worker thread of its own: nothing the main thread does (a synchronous write to a full pipe, a
 * synchronous SQLite call waiting on a lock, a loop that never yields) can stop its timer, and SIGKILL cannot be
 * caught or delayed. It learns of a stop in two ways: the main thread's signal handler tells it, and it hears
 * SIGTERM and SIGINT itself, for a main thread already blocked when the signal comes, whose handler would run
 * late or never. Node offers no public signal API in workers; the signal binding is the one the main thread's
 * process.on('SIGTERM') uses (libuv tells every event loop that listens), reached through process.binding, whose
 * deprecation notice is silenced in this thread only. Where a later Node refuses it, the message still arms the
 * watchdog. CommonJS source evaluated as the worker, so the bundle needs no file beside it.
 */
const WATCHDOG_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
let timer = null;
const arm = () => {
  timer ??= setTimeout(() => process.kill(workerData.pid, 'SIGKILL'), workerData.deadlineMs);
};
parentPort.on('message', arm);
try {
  process.noDeprecation = true;
  const { Signal } = process.binding('signal_wrap');
  for (const signal of workerData.signals) {
    const handle = new Signal();
    handle.onsignal = arm;
    if (handle.start(signal) !== 0) handle.close();
  }
} catch {
  // No signal binding: armed by the main thread's message only.
}
`;

/**
 * Starts the watchdog; call it where the SIGTERM and SIGINT handlers are installed (before that, the signals keep
 * their default action). It does not keep the process alive. `onError` hears of a watchdog that failed (the main
 * thread's own timer still forces the exit when that thread can run).
 */
export function startForcedExit(onError: (error: Error) => void): ForcedExit {
  const worker = new Worker(WATCHDOG_SOURCE, {
    eval: true,
    workerData: {
      pid: process.pid,
      deadlineMs: SHUTDOWN_GRACE_MS + WATCHDOG_EXTRA_MS,
      signals: [constants.signals.SIGTERM, constants.signals.SIGINT],
    },
    // Its own small heap: it holds a timer and two signal handles.
    resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 2 },
    stdout: true,
    stderr: true,
  });
  worker.on('error', onError);
  worker.unref();
  let told = false;
  return {
    shutdownStarted() {
      if (told) return;
      told = true;
      // Queued to the worker at once: it needs nothing more from this thread.
      worker.postMessage('shutdown');
    },
  };
}
