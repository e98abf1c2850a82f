import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { untilStopped } from './stream.ts';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** `count` chunks of 64 KB, each watched by a WeakRef once handed out. */
function chunks(count: number, handedOut: WeakRef<object>[]): AsyncIterable<Uint8Array> {
  return (async function* () {
    for (let i = 0; i < count; i++) {
      const chunk = new Uint8Array(64 * 1024);
      handedOut.push(new WeakRef(chunk));
      await new Promise((resolve) => setImmediate(resolve));
      yield chunk;
    }
  })();
}

describe('untilStopped (the export streams of PostgreSQL)', () => {
  it('keeps no chunk once it is handed on: memory stays flat however long the export', async () => {
    const handedOut: WeakRef<object>[] = [];
    const signal = new AbortController().signal;
    let seen = 0;
    for await (const chunk of untilStopped(chunks(200, handedOut), signal)) {
      seen += chunk.length > 0 ? 1 : 0;
      if (seen === 150) {
        gc();
        await new Promise((resolve) => setImmediate(resolve));
        gc();
        // Every chunk before the one being read is collectable (it was kept for the stream's whole life before).
        expect(handedOut.slice(0, 140).filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
      }
    }
    expect(seen).toBe(200);
  });

  it("stops a read that never ends with the signal's reason", async () => {
    const controller = new AbortController();
    const never: AsyncIterable<number> = {
      [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<number>>(() => undefined) }),
    };
    const reading = untilStopped(never, controller.signal).next();
    controller.abort(new Error('the database did not answer'));
    await expect(reading).rejects.toThrow('the database did not answer');
  });

  it('ends at once when the signal was aborted before', async () => {
    const controller = new AbortController();
    controller.abort();
    const handedOut: WeakRef<object>[] = [];
    await expect(untilStopped(chunks(3, handedOut), controller.signal).next()).rejects.toThrow();
  });

  it("leaves no unhandled rejection when the source's read fails after the stop (the stopped stream's error)", async () => {
    const unhandled: unknown[] = [];
    const note = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', note);
    try {
      const controller = new AbortController();
      controller.abort();
      const failing: AsyncIterable<number> = {
        [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error('the stream was destroyed')) }),
      };
      await expect(untilStopped(failing, controller.signal).next()).rejects.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', note);
    }
  });
});
