import { afterEach, describe, expect, it, vi } from 'vitest';
import { databaseBusy, databaseNotAnswering } from './engine-error.ts';
import { streamWatch } from './stream-watch.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Items after the given pauses; stops at once (as the adapters do) when the signal aborts. */
async function* paced(pauses: number[], signal: AbortSignal): AsyncGenerator<number> {
  for (const [i, pause] of pauses.entries()) {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, pause);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      });
    });
    yield i;
  }
}

async function read<T>(source: AsyncIterable<T>, readerPause = 0): Promise<T[]> {
  const items: T[] = [];
  for await (const item of source) {
    items.push(item);
    if (readerPause) await sleep(readerPause);
  }
  return items;
}

/** Reads `source` on fake timers (a loaded machine fires real ones late): the read's result after `ms`. */
async function readOver<T>(source: AsyncIterable<T>, ms: number, readerPause = 0): Promise<T[]> {
  const items = read(source, readerPause);
  items.catch(() => undefined);
  await vi.advanceTimersByTimeAsync(ms);
  return items;
}

describe('streamWatch', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks the database after a silence, and waits on while it answers (a long sort before the first row)', async () => {
    vi.useFakeTimers();
    let pings = 0;
    const watch = streamWatch({ quietMs: 40, alive: async () => void pings++ });
    await expect(readOver(watch.watch(paced([150, 10], watch.signal)), 200)).resolves.toEqual([0, 1]);
    expect(pings).toBeGreaterThanOrEqual(2);
  });

  it('stops the stream with the 503 when the database does not answer, aborting its signal', async () => {
    const watch = streamWatch({
      quietMs: 40,
      alive: () => Promise.reject(databaseNotAnswering('crm')),
    });
    // The second row would come after the test's own time limit: only the watch can end the read in time.
    await expect(read(watch.watch(paced([10, 600_000], watch.signal)))).rejects.toThrow(
      'The database crm is not answering right now; try again in a moment.',
    );
    expect(watch.signal.aborted).toBe(true);
  });

  it('waits on when the database is busy (it answers others; no connection was free for the ping)', async () => {
    vi.useFakeTimers();
    let pings = 0;
    const watch = streamWatch({
      quietMs: 30,
      alive: () => {
        pings++;
        return Promise.reject(databaseBusy('crm'));
      },
    });
    await expect(readOver(watch.watch(paced([120], watch.signal)), 150)).resolves.toEqual([0]);
    expect(pings).toBeGreaterThanOrEqual(2);
  });

  it('counts no silence while the reader is slow: only the reader was waiting', async () => {
    vi.useFakeTimers();
    let pings = 0;
    const watch = streamWatch({ quietMs: 40, alive: async () => void pings++ });
    await expect(readOver(watch.watch(paced([0, 0, 0], watch.signal)), 400, 100)).resolves.toEqual([0, 1, 2]);
    expect(pings).toBe(0);
  });

  it('follows the caller’s signal', async () => {
    const caller = new AbortController();
    const watch = streamWatch({ quietMs: 1000, alive: async () => undefined, signal: caller.signal });
    setTimeout(() => caller.abort(new Error('cancelled')), 20);
    await expect(read(watch.watch(paced([500], watch.signal)))).rejects.toThrow('cancelled');
  });
});
