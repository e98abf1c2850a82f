/*
 * The output of the engines' own byte writers (mysql/csv-records.ts, postgres/json-lines.ts): records written byte by
 * byte into one buffer, handed on as a chunk once it holds CHUNK_BYTES, with the number of records in it (an export
 * job counts its rows by them).
 */

/** A chunk is handed on once it holds this much. */
export const CHUNK_BYTES = 64 * 1024;

/** A writer's buffer: `out` from 0 to `at` holds the records written since the last take. */
export class ChunkedBytes {
  protected out: Buffer = Buffer.allocUnsafe(2 * CHUNK_BYTES);
  protected at = 0;
  protected rowsInChunk = 0;

  /** Whether a chunk is ready to be taken. */
  get full(): boolean {
    return this.at >= CHUNK_BYTES;
  }

  /** The records written since the last take, and how many (null when none). */
  take(): { bytes: Buffer; rows: number } | null {
    if (this.rowsInChunk === 0) return null;
    const chunk = { bytes: this.out.subarray(0, this.at), rows: this.rowsInChunk };
    this.replace(Buffer.allocUnsafe(2 * CHUNK_BYTES));
    this.at = 0;
    this.rowsInChunk = 0;
    return chunk;
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
