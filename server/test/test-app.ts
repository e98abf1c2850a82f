import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppContext } from '#server/app.ts';
import { loadConfig, type Config } from '#server/config.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import { DatabaseRegistry } from '#server/engines/database-registry.ts';
import { migrateAppStore, openAppStore, type AppStore } from '#server/store/app-store.ts';
import { tempDir } from './temp-dir.ts';

/** The app's time in a test: real time plus an offset that only moves forward when the test says so. */
export interface TestClock {
  now(): Date;
  /** Moves the app's time forward by `ms`. */
  advance(ms: number): void;
  /** Holds the app's time where it is now (a loaded machine's own seconds then count for nothing) until thaw(). */
  freeze(): void;
  /** Lets the app's time run with the real time again, keeping every advance. */
  thaw(): void;
}

/** A real app on a fresh SQLite app store (or APP_DB_URL given in env), as tests call it in-process. */
export interface TestApp {
  app: FastifyInstance;
  store: AppStore;
  config: Config;
  clock: TestClock;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  databases?: DatabaseEngine[];
  webRoot?: string | null;
  /** Per-address limits of the account routes; tests get 1000 a minute unless they say otherwise. */
  rateLimits?: AppContext['rateLimits'];
  mailer?: AppContext['mailer'];
  sms?: AppContext['sms'];
  captcha?: AppContext['captcha'];
  /** Where log lines go (with env LOG_LEVEL, which is silent unless given); tests that read the log pass one. */
  logStream?: AppContext['logStream'];
  /** Titan's answerer and per-address limits (by default the answerer from config, 1000 calls a minute). */
  chat?: AppContext['chat'];
  /** Bulk changes' batch size and a hook before each batch. */
  bulk?: AppContext['bulk'];
  /** Imports' check batch size and a hook before each batch. */
  imports?: AppContext['imports'];
}

/** A test clock starting at the real time. */
export function testClock(): TestClock {
  let offset = 0;
  let frozenAt: number | null = null;
  return {
    now: () => new Date((frozenAt ?? Date.now()) + offset),
    advance(ms) {
      offset += ms;
    },
    freeze() {
      frozenAt ??= Date.now();
    },
    thaw() {
      if (frozenAt !== null) offset -= Date.now() - frozenAt;
      frozenAt = null;
    },
  };
}

/** Builds the app the way main.ts does, with its own data folder; `close()` removes everything. The human check
 * costs little (CAPTCHA_COST=10) unless env says otherwise. */
export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dir = tempDir();
  const config = loadConfig({ DATA_DIR: dir.path, LOG_LEVEL: 'silent', CAPTCHA_COST: '10', ...options.env });
  const store = openAppStore(config.appStore);
  await migrateAppStore(store);
  const databases = new DatabaseRegistry(options.databases ?? []);
  const clock = testClock();
  const app = await buildApp({
    config,
    store,
    databases,
    webRoot: options.webRoot ?? null,
    clock: clock.now,
    rateLimits: { signIn: 1000, codeCheck: 1000, forgotPassword: 1000, resend: 1000, ...options.rateLimits },
    ...(options.mailer ? { mailer: options.mailer } : {}),
    ...(options.sms ? { sms: options.sms } : {}),
    ...(options.captcha ? { captcha: options.captcha } : {}),
    ...(options.logStream ? { logStream: options.logStream } : {}),
    ...(options.bulk ? { bulk: options.bulk } : {}),
    ...(options.imports ? { imports: options.imports } : {}),
    chat: { ...options.chat, limits: { start: 1000, add: 1000, ...options.chat?.limits } },
  });
  await app.ready();
  return {
    app,
    store,
    config,
    clock,
    async close() {
      await app.close();
      await databases.closeAll();
      await store.close();
      dir.remove();
    },
  };
}

/** The repository root, for tests that read built files. */
export const repoRoot = path.resolve(import.meta.dirname, '..', '..');
