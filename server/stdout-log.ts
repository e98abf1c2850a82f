import type { Writable } from 'node:stream';

/** How much log text may wait for stdout before new lines are dropped: a reader that has stopped reading costs
 * this much memory at most. */
export const LOG_BUFFER_BYTES = 16 * 1024 * 1024;
/** Lines waiting for the end of the turn are handed over once this many bytes wait. */
const BATCH_BYTES = 64 * 1024;

/** Where the server's log lines go: pino writes each line here. */
export interface StdoutLog {
  write(line: string): void;
  /** Resolves once every line accepted so far has been written, or after `ms` (a reader that does not read). */
  flush(ms: number): Promise<void>;
  /** Lines dropped because stdout did not take them. */
  readonly dropped: number;
}

/**
 * Log lines to stdout that can never hold the process (issue 10 finding 10, issue 11 finding 10). pino's default
 * destination flushes synchronously at exit and retries every 100 ms for as long as the pipe is full, so a stdout
 * pipe nobody reads (a supervisor that stopped draining it) kept a stopped server alive for ever, past its forced
 * exit. Here lines go through Node's own stdout stream: on a pipe or socket its writes never block (what the pipe
 * does not take waits in memory, written as the reader reads), at most LOG_BUFFER_BYTES wait (then new lines are
 * dropped and counted), and nothing is written at exit: the shutdown waits for the lines with a deadline (`flush`).
 * A reader that has gone (EPIPE) ends logging; the process goes on. No write goes to the libuv thread pool, where a
 * write blocked on a full pipe would hold process.exit (it waits for the pool's threads) for ever.
 *
 * The lines of one turn of the event loop go out as one write (issue 17 target 2): Node writes to a file or, on
 * Linux, a pipe synchronously, one system call a line, and with two lines a request that call was a tenth of a
 * page call's CPU under load. A line waits at most for the end of the turn, or until 64 KB are waiting; `flush`
 * hands over what waits at once.
 */
export function stdoutLog(out: Writable = process.stdout, bufferBytes = LOG_BUFFER_BYTES): StdoutLog {
  /** Bytes accepted whose write has not completed (those waiting for the end of the turn included). */
  let heldBytes = 0;
  let broken = false;
  let dropped = 0;
  /** Lines accepted in this turn, not yet handed to `out`. */
  let waiting: string[] = [];
  let waitingBytes = 0;
  let scheduled = false;
  /** Hands the waiting lines to `out` as one write. */
  const handOver = () => {
    scheduled = false;
    if (waiting.length === 0) return;
    const text = waiting.length === 1 ? (waiting[0] ?? '') : waiting.join('');
    const bytes = waitingBytes;
    waiting = [];
    waitingBytes = 0;
    if (broken) {
      heldBytes -= bytes;
      settle();
      return;
    }
    out.write(text, () => {
      heldBytes -= bytes;
      settle();
    });
  };
  const idle = new Set<() => void>();
  const settle = () => {
    if (heldBytes > 0 && !broken) return;
    for (const wake of idle) wake();
    idle.clear();
  };
  out.on('error', () => {
    broken = true;
    settle();
  });

  return {
    write(line) {
      if (broken) return;
      const bytes = Buffer.byteLength(line, 'utf8');
      if (heldBytes + bytes > bufferBytes) {
        dropped += 1;
        return;
      }
      heldBytes += bytes;
      waiting.push(line);
      waitingBytes += bytes;
      if (waitingBytes >= BATCH_BYTES) handOver();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(handOver);
      }
    },
    flush(ms) {
      handOver();
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          idle.delete(done);
          resolve();
        }, ms);
        idle.add(done);
        settle();
      });
    },
    get dropped() {
      return dropped;
    },
  };
}
