import { createRequire } from 'node:module';

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

/** autocannon on `origin` for `seconds` on `connections` kept-alive connections, pipelining 1, cycling `calls`. */
export function loadRun(
  origin: string,
  calls: Call[],
  connections: number,
  seconds: number,
): Promise<LoadRun> {
  return new Promise((resolve, reject) => {
    const samples: number[] = [];
    let failed = 0;
    const instance = autocannon(
      {
        url: origin,
        connections,
        pipelining: 1,
        duration: seconds,
        timeout: 30,
        requests: calls.map((call) => ({
          method: call.method,
          path: call.path,
          headers: call.headers,
          ...(call.body !== undefined ? { body: call.body } : {}),
        })),
      },
      (error, result) => {
        if (error) return reject(error);
        resolve({
          samples,
          requestsPerSecond: result.requests.average,
          failed: failed + result.errors + result.timeouts,
        });
      },
    );
    instance.on('response', (_client, status, _bytes, time) => {
      if (status >= 200 && status < 300) samples.push(time);
      else failed++;
    });
  });
}
