import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './test-app.ts';

/*
 * The `dbui` command line as an operator runs it: the built dist/server/dbui.js (scripts/build-server.mjs), built
 * once per test process into a private folder, never the shared dist/, and run as a child process in a folder of
 * the test's, with only the environment the test gives (and PATH, HOME).
 */

let bundle: string | null = null;

/** The command line's bundle, built on first use (a few seconds); removed when the test process exits. */
export function dbuiBundle(): string {
  if (bundle) return bundle;
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'dbui-cli-bundle-'));
  process.once('exit', () => fs.rmSync(folder, { recursive: true, force: true }));
  // The bundle's packages resolve from the checkout's node_modules, found by walking up from it.
  fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(folder, 'node_modules'), 'dir');
  const outdir = path.join(folder, 'server');
  const built = spawnSync(process.execPath, ['scripts/build-server.mjs', '--outdir', outdir], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`the bundle did not build:\n${built.stderr}${built.stdout}`);
  bundle = path.join(outdir, 'dbui.js');
  return bundle;
}

export interface DbuiRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface DbuiRunOptions {
  /** The working directory (where .env is looked for, and ./data the default DATA_DIR). */
  cwd: string;
  env?: Record<string, string>;
  /** What stdin gives (then closed); none: stdin is empty. */
  input?: string;
}

/** Runs `dbui ...args` and resolves once it exits. */
export function runDbui(args: string[], options: DbuiRunOptions): Promise<DbuiRun> {
  const child = spawn(process.execPath, [dbuiBundle(), ...args], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(options.input ?? '');
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Whether util-linux `script` is here, to give a command a terminal. */
export const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

/**
 * Runs `dbui ...args` at a terminal (util-linux `script` gives it one) and answers each prompt as it appears:
 * `answers` maps the prompt's text to what is typed. Resolves with everything the terminal showed.
 */
export function runDbuiAtTerminal(
  args: string[],
  options: { cwd: string; env?: Record<string, string>; answers: [prompt: string, answer: string][] },
): Promise<{ code: number | null; output: string }> {
  const line = [process.execPath, dbuiBundle(), ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`);
  const child = spawn('script', ['-qec', line.join(' '), '/dev/null'], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TERM: 'dumb', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const pending = [...options.answers];
  let seen = 0;
  const answerPrompts = () => {
    for (;;) {
      const next = pending[0];
      if (!next) return;
      const at = output.indexOf(next[0], seen);
      if (at < 0) return;
      seen = at + next[0].length;
      pending.shift();
      child.stdin.write(`${next[1]}\r`);
    }
  };
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    answerPrompts();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      child.stdin.end();
      resolve({ code, output });
    });
  });
}
