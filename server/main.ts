import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { ConfigError, defaultPublicUrl, scanTimeoutOf, type Config, type DatabaseSetting } from './config.ts';
import { loadConfiguration } from './config-sources.ts';
import { demoFileState } from './demo/demo-file.ts';
import { connectDatabase } from './engines/connect.ts';
import { DatabaseRegistry } from './engines/database-registry.ts';
import { redactUrl } from './engines/engine-url.ts';
import { migrateAppStore, openAppStore, type AppStore } from './store/app-store.ts';
import { prepareFirstAdministrator, setupLink } from './features/setup/service.ts';
import { loadSecretKey, secretBox } from './crypto/secret-box.ts';
import { SHUTDOWN_GRACE_MS, followGuardian } from './forced-exit.ts';
import { limitHeapGrowth } from './heap-growth.ts';
import { stdoutLog } from './stdout-log.ts';

/** The name the embedded demo database is registered under when DATABASES is not set. */
export const DEMO_DATABASE_NAME = 'demo';

/** A start-up failure: printed as one line, never as a stack trace. */
class StartError extends Error {}

/** The built web app sits beside the bundled server: dist/server/server.js → dist/web. */
function webRoot(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'web');
}

async function openStore(config: Config): Promise<AppStore> {
  const store = openAppStore(config.appStore);
  try {
    await migrateAppStore(store);
    return store;
  } catch (error) {
    await store.close().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new StartError(
      `APP_DB_URL: the app store at ${redactUrl(config.appDbUrl)} cannot be used: ${reason}`,
    );
  }
}

async function registeredDatabases(config: Config): Promise<DatabaseSetting[]> {
  if (config.databases.length > 0) return config.databases;
  const file = path.join(config.dataDir, 'demo.db');
  // The seeding code and its PNG encoder are loaded only when the file is missing or unfinished, not at every start.
  if (demoFileState(file) !== 'finished') {
    const { ensureDemoDatabase } = await import('./demo/demo-database.ts');
    ensureDemoDatabase(file);
  }
  return [{ name: DEMO_DATABASE_NAME, kind: 'sqlite', url: `sqlite:${file}` }];
}

/** The log lines on stdout (JSON, one a line), and the setup link between them. */
const logs = stdoutLog();
/** How long the last lines may take to reach stdout before the process exits anyway. */
const LAST_LINES_MS = 1_000;

/** Flushes the log lines (within LAST_LINES_MS), then exits with `code`. */
async function exitAfterLogs(code: number): Promise<never> {
  await logs.flush(LAST_LINES_MS);
  process.exit(code);
}

/**
 * Stops cleanly on SIGTERM or SIGINT: stop accepting, let requests in flight finish, close pools, exit 0. Whatever
 * holds it, the process is gone within SHUTDOWN_GRACE_MS: this thread's timer says so in the log and kills it, and
 * when this thread cannot run, the guardian process that passed the signal on kills it a second later
 * (guardian.ts, forced-exit.ts).
 */
function closeOnSignals(app: FastifyInstance, store: AppStore, databases: DatabaseRegistry): void {
  followGuardian();
  let closing = false;
  const close = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    const force = setTimeout(() => {
      app.log.error(`shutdown is taking too long; killing the process within ${SHUTDOWN_GRACE_MS / 1000} s`);
      // SIGKILL, not process.exit: exit waits for the libuv thread pool, and whatever held the stop may hold a
      // thread of it (a file write on a hung network mount).
      void logs.flush(LAST_LINES_MS).then(() => process.kill(process.pid, 'SIGKILL'));
    }, SHUTDOWN_GRACE_MS - LAST_LINES_MS);
    force.unref();
    // Fastify closes the connections idle at this moment; a keep-alive connection whose request finishes later
    // would hold the close open for the keep-alive timeout, so idle ones are closed again until the end.
    const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
    void app
      .close()
      .then(() => clearInterval(sweep))
      .then(() => Promise.allSettled([databases.closeAll(), store.close()]))
      .then(() => {
        if (logs.dropped > 0) {
          app.log.warn({ dropped: logs.dropped }, 'log lines were dropped: stdout was not being read');
        }
        app.log.info('shut down');
        return exitAfterLogs(0);
      });
  };
  process.on('SIGTERM', () => close('SIGTERM'));
  process.on('SIGINT', () => close('SIGINT'));
}

async function main(): Promise<void> {
  limitHeapGrowth();
  // The environment, a .env file under it, the secrets' files (config-sources.ts).
  const { config } = loadConfiguration();
  const store = await openStore(config);
  const databases = new DatabaseRegistry(
    await Promise.all(
      (await registeredDatabases(config)).map((setting) =>
        connectDatabase(setting.name, setting.kind, setting.url, {
          statementTimeoutMs: config.statementTimeoutMs,
          poolSize: config.poolSize,
          scanTimeoutMs: scanTimeoutOf(config, setting.name),
        }),
      ),
    ),
  );
  // Builds mail and SMS delivery from SMTP_URL and SMS_URL too: a URL they cannot use stops the start here.
  const app = await buildApp({ config, store, databases, webRoot: webRoot(), logStream: logs }).catch(
    (error: unknown) => {
      throw new StartError(error instanceof Error ? error.message : String(error));
    },
  );
  closeOnSignals(app, store, databases);
  // Before listening: a server that answers /api/health can sign its ADMIN_* administrator in.
  const { setupToken } = await prepareFirstAdministrator(
    store,
    config.admin,
    app.log,
    secretBox(loadSecretKey(config)),
  );
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    throw new StartError(
      `PORT: cannot listen on ${config.host}:${config.port}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const baseUrl = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  app.log.info(
    {
      url: baseUrl,
      databases: databases.all().map((d) => `${d.name} (${d.kind})`),
      appStore: config.appStore.kind,
    },
    'DBUI is ready',
  );
  if (setupToken) {
    // At PUBLIC_URL when it is set; else at the port listened on, by an address a browser can use (localhost for a
    // wildcard HOST, as in a container). Printed plainly as well as logged, so an operator reading the terminal sees
    // it at once; through the log's writer, so it stays between the lines it belongs with.
    const linkBase =
      config.publicUrl === defaultPublicUrl(config.host, config.port)
        ? defaultPublicUrl(config.host, port)
        : config.publicUrl;
    logs.write(
      `\nNo administrator yet. Create one within 24 hours at:\n  ${setupLink(linkBase, setupToken)}\n\n`,
    );
  }
}

main().catch((error: unknown) => {
  const message =
    error instanceof ConfigError || error instanceof StartError
      ? error.message
      : `unexpected start-up failure: ${error instanceof Error ? error.message : String(error)}`;
  process.stderr.write(`DBUI cannot start: ${message}\n`);
  void exitAfterLogs(1);
});
