import { spawn } from 'node:child_process';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { stdoutLog } from './stdout-log.ts';

/*
 * The log writer against real pipes: the stdin of a child process that never reads it (`sleep`), that reads all of
 * it (`cat`), or that has exited.
 */

const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

function pipeTo(command: string, ...args: string[]): { pipe: Writable; exited: Promise<void> } {
  const child = spawn(command, args, { stdio: ['pipe', 'ignore', 'ignore'] });
  children.push(child);
  if (!child.stdin) throw new Error('no pipe');
  return { pipe: child.stdin, exited: new Promise((resolve) => child.once('exit', () => resolve())) };
}

const line = `${JSON.stringify({ level: 30, msg: 'x'.repeat(200) })}\n`;

describe('the log writer', () => {
  it('never waits for a pipe nobody reads: it keeps a bounded amount, drops the rest, and gives up a flush', async () => {
    const { pipe } = pipeTo('sleep', '30');
    const log = stdoutLog(pipe, 256 * 1024);
    const started = performance.now();
    // 2 MiB of lines: far more than the pipe (64 KiB) and the buffer hold.
    for (let i = 0; i < 10_000; i += 1) log.write(line);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(log.dropped).toBeGreaterThan(8_000);
    expect(log.dropped).toBeLessThan(10_000);

    const flushing = performance.now();
    await log.flush(300);
    const waited = performance.now() - flushing;
    expect(waited).toBeGreaterThanOrEqual(290);
    expect(waited).toBeLessThan(2_000);
  });

  it('writes every line to a reader, and a flush ends when they are written', async () => {
    const { pipe } = pipeTo('cat');
    // The default buffer (16 MB): a reader that reads, however slowly a busy machine lets it, loses nothing.
    const log = stdoutLog(pipe);
    for (let i = 0; i < 2_000; i += 1) log.write(line);
    const flushing = performance.now();
    await log.flush(10_000);
    expect(performance.now() - flushing).toBeLessThan(5_000);
    expect(log.dropped).toBe(0);
  });

  it('goes on quietly once the reader has gone', async () => {
    const { pipe, exited } = pipeTo('true');
    await exited;
    const log = stdoutLog(pipe);
    for (let i = 0; i < 100; i += 1) log.write(line);
    await log.flush(5_000);
    // The broken pipe ended logging; later lines are ignored without an error.
    expect(() => log.write(line)).not.toThrow();
  });

  it('hands the lines of one turn over as one write, in order, and a flush hands over what waits at once', async () => {
    const writes: string[] = [];
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        writes.push(chunk.toString('utf8'));
        done();
      },
    });
    const log = stdoutLog(out);
    for (let i = 0; i < 100; i += 1) log.write(`line ${i}\n`);
    expect(writes).toHaveLength(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(1);
    expect(writes[0]).toBe(Array.from({ length: 100 }, (_, i) => `line ${i}\n`).join(''));

    log.write('last\n');
    await log.flush(1_000);
    expect(writes).toEqual([expect.any(String), 'last\n']);
  });
});
