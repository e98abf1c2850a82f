import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '#server/app.ts';
import { loadConfig, type Config } from '#server/config.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import { DatabaseRegistry } from '#server/engines/database-registry.ts';
import { migrateAppStore, openAppStore, type AppStore } from '#server/store/app-store.ts';
import { tempDir } from './temp-dir.ts';

/** A real app on a fresh SQLite app store (or APP_DB_URL given in env), as tests call it in-process. */
export interface TestApp {
  app: FastifyInstance;
  store: AppStore;
  config: Config;
  close(): Promise<void>;
}

/** Builds the app the way main.ts does, with its own data folder; `close()` removes everything. */
export async function buildTestApp(
  options: { env?: Record<string, string>; databases?: DatabaseEngine[]; webRoot?: string | null } = {},
): Promise<TestApp> {
  const dir = tempDir();
  const config = loadConfig({ DATA_DIR: dir.path, LOG_LEVEL: 'silent', ...options.env });
  const store = openAppStore(config.appStore);
  await migrateAppStore(store);
  const databases = new DatabaseRegistry(options.databases ?? []);
  const app = await buildApp({ config, store, databases, webRoot: options.webRoot ?? null });
  await app.ready();
  return {
    app,
    store,
    config,
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
