/*
 * npm run bench:startup — from `node dist/server/main.js` (what `npm start` runs) to the first answered request,
 * on embedded defaults: the first start (creates the app store and seeds the demo database) and later starts.
 * Needs `npm run build` first (or DBUI_DIST naming a private copy of dist/). Writes bench/results/startup.md with
 * the machine and the 1-minute load average before and after.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ms } from './bench-stats.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const PORT = 18181;
const SERVER_MAIN = path.join(process.env.DBUI_DIST ?? 'dist', 'server', 'main.js');

async function startOnce(dataDir: string): Promise<number> {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [SERVER_MAIN], {
    env: { ...process.env, PORT: String(PORT), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${PORT}/api/health`);
        if (res.ok) return Number(process.hrtime.bigint() - started) / 1e6;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.on('exit', r));
  }
}

if (!fs.existsSync(SERVER_MAIN)) throw new Error(`${SERVER_MAIN} is missing: run npm run build first.`);
const loadBefore = os.loadavg()[0] ?? 0;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dbui-startup-'));
try {
  const first = await startOnce(dataDir);
  const later: number[] = [];
  for (let i = 0; i < RUNS; i++) later.push(await startOnce(dataDir));
  later.sort((a, b) => a - b);
  const median = later[Math.floor(later.length / 2)] ?? 0;
  const table = [
    `| start | to first answered request |`,
    `| --- | ---: |`,
    `| first start (creates the app store, seeds the 19 MB demo database) | ${ms(first)} ms |`,
    `| later starts (median of ${RUNS}) | ${ms(median)} ms |`,
  ].join('\n');
  console.log(table);
  const cpu = os.cpus();
  const machine = `${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.version}`;
  const load = `1-minute load average ${loadBefore.toFixed(2)} before, ${(os.loadavg()[0] ?? 0).toFixed(2)} after`;
  fs.writeFileSync(
    new URL('./results/startup.md', import.meta.url),
    `${new Date().toISOString().slice(0, 10)}, ${machine}; ${load}.\n\n${table}\n`,
  );
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
