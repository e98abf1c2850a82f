import { createRequire } from 'node:module';
import { cpuMs } from './bench-process.ts';

/*
 * Load runs with autocannon, shared by bench:http and bench:scale: kept-alive connections, pipelining 1, each
 * response's own time kept (fractions of a millisecond), failures counted (non-2xx, errors, timeouts).
 */

export interface Summary {
  median: number;
  p99: number;
  n: number;
}

/** The median and the 99th percentile of samples (nearest rank). */
export function summarise(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
  return { median: at(0.5), p99: at(0.99), n: sorted.length };
}

/** One HTTP call as autocannon takes it. */
export interface Call {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

interface CannonResult {
  requests: { average: number };
  errors: number;
  timeouts: number;
}
interface CannonInstance {
  on(
    event: 'response',
    listener: (client: unknown, statusCode: number, bytes: number, responseTime: number) => void,
  ): void;
}
type Autocannon = (
  options: Record<string, unknown>,
  done: (error: Error | null, result: CannonResult) => void,
) => CannonInstance;
// autocannon ships no types; the one call used here is typed above.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export interface LoadRun {
  /** Each successful response's time, in milliseconds. */
  samples: number[];
  requestsPerSecond: number;
  failed: number;
}

/** A load run's settling: its first seconds, on the same connections, are not counted. */
export interface Settling {
  seconds: number;
  /** Called when counting begins (a caller reads the server's CPU time here). */
  onCounting?: () => void;
}

/**
 * autocannon on `origin` for `seconds` on `connections` kept-alive connections, pipelining 1, cycling `calls`.
 * With `settling`, the run first lasts that much longer on the same connections without counting: autocannon opens
 * all its connections at once, and the first second or two of a run answer the ones whose first request waited
 * behind that storm late (up to 2 s at 200 connections, for the minimal server too), which is not the kept-alive
 * load being measured. Requests a second are then the counted responses over the counted time.
 */
export function loadRun(
  origin: string,
  calls: Call[],
  connections: number,
  seconds: number,
  settling: Settling = { seconds: 0 },
): Promise<LoadRun> {
  return new Promise((resolve, reject) => {
    const samples: number[] = [];
    let failed = 0;
    let counting = settling.seconds <= 0;
    let countingSince = Date.now();
    const settled = counting
      ? null
      : setTimeout(() => {
          counting = true;
          countingSince = Date.now();
          settling.onCounting?.();
        }, settling.seconds * 1000);
    if (counting) settling.onCounting?.();
    const instance = autocannon(
      {
        url: origin,
        connections,
        pipelining: 1,
        duration: seconds + Math.max(0, settling.seconds),
        timeout: 30,
        requests: calls.map((call) => ({
          method: call.method,
          path: call.path,
          headers: call.headers,
          ...(call.body !== undefined ? { body: call.body } : {}),
        })),
      },
      (error, result) => {
        if (settled) clearTimeout(settled);
        if (error) return reject(error);
        const countedSeconds = (Date.now() - countingSince) / 1000;
        resolve({
          samples,
          requestsPerSecond: settled ? (samples.length + failed) / countedSeconds : result.requests.average,
          failed: failed + result.errors + result.timeouts,
        });
      },
    );
    instance.on('response', (_client, status, _bytes, time) => {
      if (!counting) return;
      if (status >= 200 && status < 300) samples.push(time);
      else failed++;
    });
  });
}

/** A load run counted after `settleSeconds` (see Settling), with the server process's CPU time (ms, /proc) over the
 * counted seconds. */
export async function loadRunWithCpu(
  pid: number,
  origin: string,
  calls: Call[],
  connections: number,
  seconds: number,
  settleSeconds: number,
): Promise<LoadRun & { userMs: number; systemMs: number }> {
  let before = cpuMs(pid);
  const run = await loadRun(origin, calls, connections, seconds, {
    seconds: settleSeconds,
    onCounting: () => (before = cpuMs(pid)),
  });
  const after = cpuMs(pid);
  return { ...run, userMs: after.user - before.user, systemMs: after.system - before.system };
}
