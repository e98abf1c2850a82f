import { DatabaseUnavailable } from './engine-error.ts';

/*
 * A stream's deadline on inactivity (docs/decisions/0019-call-deadlines.md). A stream has no deadline as a whole (an
 * export of ten million rows takes minutes), and it may rightly be silent for long: a sort of the whole table comes
 * before its first row. So when it has given nothing for `quietMs` while its reader waits (a slow reader is not
 * silence: the wait is only counted while the reader asks), the database is asked whether it still answers
 * (`alive`, a ping with a deadline of its own). A database that answers, or that answers others but has no
 * connection free for the ping (busy), is working, and the wait goes on; one that does not answer stops the stream
 * with that 503, through the signal the adapter listens to, which discards the stream's connection.
 */

/** How long to wait for the adapter's stream to end after the signal, before leaving it behind. */
const STOP_GRACE_MS = 1000;

type Next<T> = { result: IteratorResult<T> } | { quiet: true };

function nextWithin<T>(next: Promise<IteratorResult<T>>, ms: number): Promise<Next<T>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve({ quiet: true }), ms);
    next.then(
      (result) => {
        clearTimeout(timer);
        resolve({ result });
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Watches one stream: pass `signal` to the adapter's stream, then read it through `watch`. */
export interface StreamWatch {
  /** Aborted by the caller's signal, or by the watch when the database stopped answering. */
  readonly signal: AbortSignal;
  watch<T>(source: AsyncIterable<T>): AsyncGenerator<T>;
}

export function streamWatch(options: {
  quietMs: number;
  alive: () => Promise<void>;
  signal?: AbortSignal | undefined;
}): StreamWatch {
  const stopper = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stopper.signal]) : stopper.signal;

  /** The next item, asking the database whether it answers after each quiet period. */
  async function nextOf<T>(next: Promise<IteratorResult<T>>): Promise<IteratorResult<T>> {
    for (;;) {
      const got = await nextWithin(next, options.quietMs);
      if ('result' in got) return got.result;
      // The stream may still give its item (or fail) while the database is asked.
      const asked = options.alive().then(
        () => ({ alive: true as const }),
        (error: unknown) => ({ alive: false as const, error }),
      );
      const first = await Promise.race([next.then((result) => ({ result })), asked]);
      if ('result' in first) return first.result;
      if (first.alive || (first.error instanceof DatabaseUnavailable && first.error.why === 'busy')) continue;
      stopper.abort(first.error);
      // The adapter ends its stream on the signal and the connection goes with it; the error is the ping's.
      await nextWithin(next, STOP_GRACE_MS).catch(() => undefined);
      throw first.error;
    }
  }

  return {
    signal,
    async *watch<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
      const iterator = source[Symbol.asyncIterator]();
      // A stream left behind mid-read cannot be told to return (its pending read never settles); one stopped by
      // the reader between reads is.
      let pending = false;
      let ended = false;
      try {
        for (;;) {
          pending = true;
          const result = await nextOf(iterator.next());
          pending = false;
          if (result.done) {
            ended = true;
            return;
          }
          yield result.value;
        }
      } finally {
        if (!ended && !pending) await iterator.return?.();
      }
    },
  };
}
