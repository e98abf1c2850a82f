import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { batchesOf } from './stream-batches.ts';

/** An object stream of `count` numbers, pushed as asked. */
function numbers(count: number): Readable {
  let next = 0;
  return new Readable({
    objectMode: true,
    highWaterMark: 4,
    read() {
      this.push(next < count ? next++ : null);
    },
  });
}

describe('reading a row stream a batch at a time', () => {
  it('yields every item once, in order, in batches of the size asked, the last one shorter', async () => {
    const batches: number[][] = [];
    for await (const batch of batchesOf<number>(numbers(10), 3)) batches.push(batch);
    expect(batches).toEqual([[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]);
  });

  it('ends at once on an empty stream', async () => {
    const batches: number[][] = [];
    for await (const batch of batchesOf<number>(numbers(0), 3)) batches.push(batch);
    expect(batches).toEqual([]);
  });

  it('throws the error of a stream destroyed while the consumer holds a batch (a cancel), never leaving it unhandled', async () => {
    const stream = numbers(1000);
    const seen: number[] = [];
    const reading = (async () => {
      for await (const batch of batchesOf<number>(stream, 5)) {
        seen.push(...batch);
        // Cancelled while this batch is being written.
        if (seen.length === 10) stream.destroy(new Error('cancelled'));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    await expect(reading).rejects.toThrow('cancelled');
    expect(seen.length).toBe(10);
  });

  it('throws when the stream fails before the end, and when it closes without ending', async () => {
    const failing = new Readable({
      objectMode: true,
      read() {
        this.destroy(new Error('connection lost'));
      },
    });
    await expect(batchesOf(failing, 2).next()).rejects.toThrow('connection lost');
    const closed = numbers(100);
    const batches = batchesOf<number>(closed, 2);
    await batches.next();
    closed.destroy();
    await expect(batches.next()).rejects.toThrow('closed before its end');
  });
});
