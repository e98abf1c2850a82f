import { describe, expect, it } from 'vitest';
import { CHUNK_BYTES, ChunkedBytes } from './chunked-bytes.ts';

/** A writer of fixed records ("record n\n"), as the engines' encoders write theirs. */
class Records extends ChunkedBytes {
  write(n: number): void {
    const line = `record ${n}\n`;
    this.room(line.length);
    this.at += this.out.write(line, this.at, 'latin1');
    this.rowsInChunk++;
  }
}

/** Writes records until a chunk is full and takes it. */
function fullChunk(writer: Records, from: number) {
  let n = from;
  while (!writer.full) writer.write(n++);
  return { chunk: writer.take()!, next: n };
}

describe('ChunkedBytes', () => {
  it('hands each chunk its own bytes until the consumer gives it back, then writes later records into it', () => {
    const writer = new Records();
    const first = fullChunk(writer, 0);
    const firstText = first.chunk.bytes.toString('latin1');
    expect(first.chunk.bytes.length).toBeGreaterThanOrEqual(CHUNK_BYTES);
    expect(firstText.startsWith('record 0\nrecord 1\n')).toBe(true);
    // Not given back: the next chunk is written elsewhere and the first stays as it was.
    const second = fullChunk(writer, first.next);
    expect(first.chunk.bytes.toString('latin1')).toBe(firstText);
    expect(second.chunk.bytes.buffer).not.toBe(first.chunk.bytes.buffer);
    // Given back: the chunk after the one being written goes into the same memory, with its own records.
    writer.reuse(first.chunk);
    const third = fullChunk(writer, second.next);
    const fourth = fullChunk(writer, third.next);
    expect(fourth.chunk.bytes.buffer).toBe(first.chunk.bytes.buffer);
    expect(fourth.chunk.bytes.toString('latin1').startsWith(`record ${third.next}\n`)).toBe(true);
    expect(fourth.chunk.rows).toBe(fourth.next - third.next);
    // Every record once, in order, across chunks.
    const text = [second, third, fourth].map(({ chunk }) => chunk.bytes.toString('latin1')).join('');
    const lines = (firstText + text).split('\n').slice(0, -1);
    expect(lines).toEqual(Array.from({ length: fourth.next }, (_, n) => `record ${n}`));
  });

  it('keeps no slice of a shared pool and no more than a few buffers', () => {
    const writer = new Records();
    writer.reuse({ bytes: Buffer.from('a slice of Node’s shared pool') });
    const taken = Array.from({ length: 8 }, (_, i) => fullChunk(writer, i * 10_000).chunk);
    for (const chunk of taken) writer.reuse(chunk);
    const again = Array.from({ length: 9 }, (_, i) => fullChunk(writer, i * 10_000).chunk).slice(1);
    const reused = again.filter((chunk) => taken.some((t) => t.bytes.buffer === chunk.bytes.buffer));
    expect(reused).toHaveLength(4);
  });
});
