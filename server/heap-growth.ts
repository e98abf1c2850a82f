import v8 from 'node:v8';

/**
 * How much V8 lets the old generation grow past what survived its last full collection before it collects again
 * (issue 17 target 2, decision 0039). V8's own factor on a machine with gigabytes to spare is up to 4: after a full
 * collection leaving DBUI's ~35 MB alive, the old generation grew to ~140 MB before the next one. Under load that
 * growth is garbage: the objects of requests waiting for a pooled connection live through two scavenges, are
 * promoted, and die at once. At 200 connections the server's memory peaked at 250-280 MB, 120 MB of it such
 * garbage; with 50 % it peaks at 160-180 MB, for about twice as many full collections (each a few tens of
 * milliseconds, mostly on V8's background threads: under 1 % of the CPU of a run).
 */
export const HEAP_GROWING_PERCENT = 50;

/**
 * Sets V8's heap growing factor for this process unless Node was started with `--heap-growing-percent` (an
 * operator's choice wins). V8 reads the flag each time it sets the next collection's limit, so setting it at start,
 * after the heap exists, takes effect from the next full collection. Returns whether it set it.
 */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent(=|$)/.test(arg))) return false;
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
