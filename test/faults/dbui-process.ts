import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '#server/config.ts';
import { hashPassword } from '#server/crypto/password-hash.ts';
import { randomToken, sha256Hex } from '#server/crypto/tokens.ts';
import { XSRF_COOKIE, XSRF_HEADER } from '#server/plugins/csrf.ts';
import { openAppStore, type AppStore } from '#server/store/app-store.ts';
import { ADMINISTRATOR_ROLE_ID } from '#server/store/roles.ts';
import { insertSession } from '#server/store/sessions.ts';
import { addUserRole, insertUser } from '#server/store/users.ts';

/*
 * DBUI as a process of the test's own, started the way `npm start` starts it (`node …/server/main.js`, the esbuild
 * bundle, no tsx), so a test can do to it what an operator's machine does: SIGKILL it mid-write, SIGTERM it under
 * load, start it again on the same data folder.
 *
 *   const data = tempDir();                                           // #server/test/temp-dir.ts
 *   const env = { DATA_DIR: data.path, DATABASES: `pg=${url}` };      // anything main.ts reads (server/config.ts)
 *   const dbui = await startDbui({ env });                            // resolves once it logged "DBUI is ready"
 *   const admin = await prepareAdmin(env);                            // an administrator and a live session
 *   const headers = await signedInHeaders(dbui, admin.token);         // bearer token + the XSRF cookie/header pair
 *   await fetch(`${dbui.url}/api/health`);
 *   await dbui.kill();                                                // SIGKILL, as a crash; resolved once gone
 *   await dbui.stop();                                                // SIGTERM; resolved with the exit and its time
 *
 * The bundle is the checkout's code: built once per test process into a private folder (scripts/build-server.mjs
 * --outdir, half a second), never the shared dist/, which may be stale or half written by someone else's build.
 * DBUI_SERVER_MAIN=path/to/main.js runs a bundle built elsewhere instead. The web app is not served (no dist/web
 * beside the private bundle): these tests call the API.
 *
 * The process listens on a free port (PORT=0) of 127.0.0.1 and reports it in its "DBUI is ready" log line, which
 * gives `url`. Its log (JSON lines on stdout, LOG_LEVEL=info unless env says otherwise) is kept in `output()` and
 * `logs()`, and shown in the error when it does not start. Processes still running when the test process exits
 * are killed (SIGKILL, by their id).
 */

/** A DBUI process a test started. */
export interface DbuiProcess {
  /** The process started: the guardian (server/guardian.ts), which passes signals on to the server. */
  readonly pid: number;
  /** The server's own process, the guardian's child (the pid of its log lines). */
  readonly serverPid: number;
  /** http://127.0.0.1:PORT */
  readonly url: string;
  readonly port: number;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Its JSON log lines so far, parsed (other lines left out). */
  logs(): Record<string, unknown>[];
  /** Resolves with the first log line that `match` accepts, waiting for it up to `timeoutMs`. */
  waitForLog(
    match: (line: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
  /** Resolves once the process has exited (at once when it has). */
  readonly exited: Promise<DbuiExit>;
  /** SIGKILL, as a crash or an OOM kill; resolves once the process is gone. */
  kill(): Promise<DbuiExit>;
  /** SIGTERM, as an operator's stop; resolves once the process has exited, with how long that took. */
  stop(): Promise<DbuiExit & { ms: number }>;
}

export interface DbuiExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface StartDbuiOptions {
  /** The environment main.ts reads; DATA_DIR is required (the app store and export files live there). */
  env: Record<string, string> & { DATA_DIR: string };
  /** How long it may take to log "DBUI is ready" (default 30 s). */
  readyTimeoutMs?: number;
}

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The processes not known to have exited: killed when the test process exits, whatever happened to the test. */
const live = new Set<ChildProcess>();
/** Private bundles built by this test process: removed at exit. */
const builtFolders: string[] = [];
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of live) {
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(child.pid, 'SIGKILL');
        } catch {
          // Gone already.
        }
      }
    }
    for (const folder of builtFolders) fs.rmSync(folder, { recursive: true, force: true });
  });
}

let bundle: Promise<string> | null = null;

/** The server bundle to run: DBUI_SERVER_MAIN, or the checkout bundled once into a private folder. */
export function dbuiServerMain(): Promise<string> {
  bundle ??= Promise.resolve().then(() => {
    const given = process.env.DBUI_SERVER_MAIN;
    if (given) return path.resolve(given);
    installExitHook();
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'dbui-bundle-'));
    builtFolders.push(folder);
    // The bundle's third-party imports resolve from the checkout's node_modules, found by walking up from it.
    fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(folder, 'node_modules'), 'dir');
    const outdir = path.join(folder, 'server');
    const built = spawnSync(process.execPath, ['scripts/build-server.mjs', '--outdir', outdir], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    if (built.status !== 0)
      throw new Error(`the server bundle did not build:\n${built.stderr}${built.stdout}`);
    return path.join(outdir, 'main.js');
  });
  return bundle;
}

/** The variables a test process may have that must not reach DBUI (they would change what it reads or loads). */
function baseEnv(): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ']) {
    const value = process.env[name];
    if (value !== undefined) kept[name] = value;
  }
  return kept;
}

/** Starts DBUI on `env` and resolves once it is ready to answer. */
export async function startDbui(options: StartDbuiOptions): Promise<DbuiProcess> {
  const main = await dbuiServerMain();
  installExitHook();
  const child = spawn(process.execPath, [main], {
    cwd: options.env.DATA_DIR,
    env: {
      ...baseEnv(),
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      CAPTCHA_COST: '10',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error(`DBUI did not start: ${main}`);
  live.add(child);

  let text = '';
  const lines: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  let partial = '';
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    text += chunk;
    partial += chunk;
    const complete = partial.split('\n');
    partial = complete.pop() ?? '';
    for (const line of complete) {
      try {
        const parsed: unknown = JSON.parse(line);
        if (parsed && typeof parsed === 'object') lines.push(parsed as Record<string, unknown>);
      } catch {
        // A plain line (the setup link): kept in output() only.
      }
    }
    for (const wake of waiters) wake();
  });
  child.stderr?.on('data', (chunk: string) => {
    text += chunk;
  });
  const exited = new Promise<DbuiExit>((resolve) => {
    child.once('exit', (code, signal) => {
      live.delete(child);
      for (const wake of waiters) wake();
      resolve({ code, signal });
    });
  });
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;

  const waitForLog = (match: (line: Record<string, unknown>) => boolean, timeoutMs = 30_000) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const check = () => {
        const found = lines.find(match);
        if (found) return finish(() => resolve(found));
        if (hasExited())
          return finish(() => reject(new Error(`DBUI exited before the awaited log line:\n${text}`)));
      };
      const timer = setTimeout(
        () =>
          finish(() =>
            reject(new Error(`DBUI did not log the awaited line within ${timeoutMs} ms:\n${text}`)),
          ),
        timeoutMs,
      );
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        waiters.delete(check);
        settle();
      };
      waiters.add(check);
      check();
    });

  let ready: Record<string, unknown>;
  try {
    ready = await waitForLog((line) => line.msg === 'DBUI is ready', options.readyTimeoutMs ?? 30_000);
  } catch (error) {
    if (!hasExited()) child.kill('SIGKILL');
    throw error;
  }
  const url = String(ready.url);
  const pid = child.pid;
  const serverPid = Number(ready.pid);

  return {
    pid,
    serverPid,
    url,
    port: Number(new URL(url).port),
    output: () => text,
    logs: () => [...lines],
    waitForLog,
    exited,
    async kill() {
      // The server itself first, so it dies at that moment as in a crash (killed alone, the guardian's end would
      // reach it a little later), then the guardian, whose exit is the one awaited.
      if (!hasExited()) {
        try {
          process.kill(serverPid, 'SIGKILL');
        } catch {
          // Gone already.
        }
        process.kill(pid, 'SIGKILL');
      }
      return exited;
    },
    async stop() {
      const started = performance.now();
      if (!hasExited()) process.kill(pid, 'SIGTERM');
      const exit = await exited;
      return { ...exit, ms: Math.round(performance.now() - started) };
    },
  };
}

/** The app store of `env` as main.ts opens it (SQLite in DATA_DIR, or APP_DB_URL); the caller closes it. DBUI must
 * have started on `env` once (it migrates the store: a test process whose migrations differ from the bundle's must
 * not). Open it while DBUI runs only to read, or to write what DBUI would write itself. */
export function openDbuiStore(env: Record<string, string>): AppStore {
  return openAppStore(loadConfig(env).appStore);
}

/** An administrator of the app store of `env` and a live session of theirs (as sign-in makes one, as the test
 * factories do); DBUI must have started on `env` once (see openDbuiStore). */
export async function prepareAdmin(
  env: Record<string, string>,
  username = 'faults-admin',
): Promise<{ userId: number; username: string; token: string }> {
  const store = openDbuiStore(env);
  try {
    const now = new Date();
    const userId = await insertUser(
      store.db,
      {
        username,
        email: `${username}@example.com`,
        passwordHash: await hashPassword('Test#12345'),
        isAdmin: true,
        emailVerified: true,
      },
      now.toISOString(),
    );
    await addUserRole(store.db, userId, ADMINISTRATOR_ROLE_ID);
    const token = randomToken();
    const expires = new Date(now.getTime() + 6 * 3_600_000).toISOString();
    await insertSession(
      store.db,
      {
        userId,
        tokenHash: sha256Hex(token),
        expiresAt: expires,
        absoluteExpiresAt: expires,
        resetPassword: false,
        method: 'Email',
        address: '127.0.0.1',
      },
      now.toISOString(),
    );
    return { userId, username, token };
  } finally {
    await store.close();
  }
}

/** The headers of a signed-in call: the bearer token and the XSRF cookie and header pair DBUI issues for it. The
 * pair is signed with a key kept in the app store, so it stays valid after DBUI restarts. */
export async function signedInHeaders(dbui: DbuiProcess, token: string): Promise<Record<string, string>> {
  const authorization = `Bearer ${token}`;
  const answer = await fetch(`${dbui.url}/api/setup`, { headers: { authorization } });
  const cookie = answer.headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .find((pair) => pair.startsWith(`${XSRF_COOKIE}=`));
  if (!cookie) throw new Error(`GET /api/setup answered no ${XSRF_COOKIE} cookie (${answer.status})`);
  const value = cookie.slice(XSRF_COOKIE.length + 1);
  return { authorization, cookie, [XSRF_HEADER]: value };
}
