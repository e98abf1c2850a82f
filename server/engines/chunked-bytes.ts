/*
 * The output of the engines' own byte writers (mysql/csv-records.ts, postgres/copy-text.ts): records written byte by
 * byte into one buffer, handed on as a chunk once it holds CHUNK_BYTES, with the number of records in it (an export
 * job counts its rows by them).
 *
 * A chunk's bytes are the writer's own buffer: the consumer writes (or copies) them before it asks for the next
 * chunk, and the producer then gives the buffer back (`reuse`) for later records. A new buffer for each chunk of a
 * 10-million-row export meant gigabytes of memory outside V8's heap, which V8 answers with a full collection every
 * few tens of megabytes: a third of the export's time (docs/decisions/0041-export-buffers-reused.md).
 */

/** A chunk is handed on once it holds this much. */
export const CHUNK_BYTES = 64 * 1024;

/** A writer's buffers: at most this many wait for reuse (the MySQL CSV reader runs a few chunks ahead). */
const SPARE_BUFFERS = 4;

/** A writer's buffer: `out` from 0 to `at` holds the records written since the last take. */
export class ChunkedBytes {
  protected out: Buffer = Buffer.allocUnsafe(2 * CHUNK_BYTES);
  protected at = 0;
  protected rowsInChunk = 0;
  /** Buffers of chunks the consumer is done with. */
  private readonly spare: Buffer[] = [];

  /** Whether a chunk is ready to be taken. */
  get full(): boolean {
    return this.at >= CHUNK_BYTES;
  }

  /** The records written since the last take, and how many (null when none). The bytes stay valid until the chunk
   * is given back with `reuse`. */
  take(): { bytes: Buffer; rows: number } | null {
    if (this.rowsInChunk === 0) return null;
    const chunk = { bytes: this.out.subarray(0, this.at), rows: this.rowsInChunk };
    this.replace(this.spare.pop() ?? Buffer.allocUnsafe(2 * CHUNK_BYTES));
    this.at = 0;
    this.rowsInChunk = 0;
    return chunk;
  }

  /** The consumer is done with a taken chunk: its buffer takes later records. */
  reuse(chunk: { bytes: Uint8Array }): void {
    const { buffer, byteOffset } = chunk.bytes;
    // Every buffer here is one of its own (allocUnsafe above Node's pool size), never a slice of a shared pool.
    if (byteOffset === 0 && buffer.byteLength >= 2 * CHUNK_BYTES && this.spare.length < SPARE_BUFFERS)
      this.spare.push(Buffer.from(buffer));
  }

  /** Makes room for `bytes` more. */
  protected room(bytes: number): void {
    if (this.at + bytes <= this.out.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.out.length * 2, this.at + bytes));
    this.out.copy(bigger, 0, 0, this.at);
    this.replace(bigger);
  }

  /** Writes go to `out` from now on (a writer keeping a view of it renews the view). */
  protected replace(out: Buffer): void {
    this.out = out;
  }
}
