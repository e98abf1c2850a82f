/** How long a stop may take: SIGTERM or SIGINT to the process gone. */
export const SHUTDOWN_GRACE_MS = 10_000;
/** The guardian's own deadline comes this much later, so the server's orderly forced exit (which says why in the
 * log) goes first whenever its main thread can run at all. */
export const GUARDIAN_EXTRA_MS = 1_000;
/** Set by the guardian (server/guardian.ts) in the server's environment. */
export const GUARDED = 'DBUI_GUARDED';

/*
 * The stop watchdog is the guardian, a small process of its own (server/guardian.ts, dist/server/main.js): it is the
 * process an operator starts and signals, passes SIGTERM, SIGINT and SIGHUP on to the server (this process) and
 * kills it with SIGKILL SHUTDOWN_GRACE_MS + GUARDIAN_EXTRA_MS after the first, whatever holds the server's main
 * thread. A worker thread of the server's own cannot hear a signal through any public Node API, and the internal
 * binding it once used is gone in Node 24 (docs/decisions/0059-node-versions-and-dependencies.md, amending 0020).
 */

/**
 * Under the guardian: when the guardian is gone without the server having exited (it was killed with SIGKILL, as a
 * supervisor or a test ends a process), the server goes too, at once, as it would have had it been killed itself.
 * Call it where the signal handlers are installed. Outside the guardian (tsx server/main.ts in development, tests
 * that run the TypeScript entry) it does nothing.
 */
export function followGuardian(): void {
  if (process.env[GUARDED] !== '1' || !process.channel) return;
  process.once('disconnect', () => process.kill(process.pid, 'SIGKILL'));
  // Node reads the channel (and so notices its end) only while something listens for messages; none come.
  process.on('message', () => undefined);
  // The channel only tells of the guardian's end: it must not keep this process alive.
  process.channel.unref();
}
