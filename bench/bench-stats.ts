/** Timing helpers shared by the benchmarks: run a call many times, report median and p99 in milliseconds. */

export interface Timing {
  median: number;
  p99: number;
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
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.ceil(q * samples.length) - 1)] ?? 0;
  return { median: at(0.5), p99: at(0.99) };
}

export const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1));
