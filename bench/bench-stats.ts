/** Timing helpers shared by the benchmarks: run a call many times, report median, p95 and p99 in milliseconds. */

export interface Timing {
  median: number;
  p95: number;
  p99: number;
  /** The median CPU time of this process a run (user and system, ms), where measured (timePair). */
  cpu?: number;
}

/** Runs `work` `runs` times after `warmup` untimed runs; `work` gets the run number. */
export async function time(runs: number, work: (i: number) => Promise<unknown>, warmup = 3): Promise<Timing> {
  for (let i = 0; i < warmup; i++) await work(-1 - i);
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await work(i);
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return summarise(samples);
}

/** Times two calls run in alternation, so warm caches favour neither; with the process's CPU time a run. */
export async function timePair(
  runs: number,
  a: (i: number) => Promise<unknown>,
  b: (i: number) => Promise<unknown>,
  warmup = 3,
): Promise<[Timing, Timing]> {
  for (let i = 0; i < warmup; i++) {
    await a(-1 - i);
    await b(-1 - i);
  }
  const samples: [number[], number[]] = [[], []];
  const cpu: [number[], number[]] = [[], []];
  const clock = async (work: (i: number) => Promise<unknown>, i: number, side: 0 | 1) => {
    const start = process.hrtime.bigint();
    const startCpu = process.cpuUsage();
    await work(i);
    const used = process.cpuUsage(startCpu);
    samples[side].push(Number(process.hrtime.bigint() - start) / 1e6);
    cpu[side].push((used.user + used.system) / 1000);
  };
  for (let i = 0; i < runs; i++) {
    await clock(a, i, 0);
    await clock(b, i, 1);
  }
  return [
    { ...summarise(samples[0]), cpu: median(cpu[0]) },
    { ...summarise(samples[1]), cpu: median(cpu[1]) },
  ];
}

/** Median, p95 and p99 (nearest rank) of samples in milliseconds; sorts them in place. */
export function summarise(samples: number[]): Timing {
  samples.sort((x, y) => x - y);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.ceil(q * samples.length) - 1)] ?? 0;
  return { median: at(0.5), p95: at(0.95), p99: at(0.99) };
}

export const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1));

/** The middle value (the lower of the two middle ones for an even count); NaN for none. */
export const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? NaN;
