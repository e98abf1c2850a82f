import type { FastifyBaseLogger } from 'fastify';
import type { HealthResponse } from '#common/contract/health.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import type { DatabaseRegistry } from '#server/engines/database-registry.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { writeProbe } from '#server/store/settings.ts';
import { healthMessages as hm } from '#common/messages.ts';

const PING_TIMEOUT_MS = 3000;

/** Health is public (load balancers ask it): an answer says in plain words what is wrong, while the driver's own
 * text, which can name hosts, users and addresses, goes to the log only. */
async function probe(
  ping: () => Promise<void>,
  component: string,
  whenDown: string,
  log: FastifyBaseLogger,
): Promise<{ status: 'up' | 'down'; error?: string }> {
  try {
    await ping();
    return { status: 'up' };
  } catch (error) {
    log.warn({ err: error, component }, `health: ${whenDown}`);
    return { status: 'down', error: whenDown };
  }
}

/** Rejects after `ms`, so a store that does not answer cannot hold the health check. */
function deadline(ms: number, what: string): Promise<never> {
  return new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms).unref(),
  );
}

/** Whether the app store answers and takes a write (a probe row in `settings`, decision 0013). */
async function checkAppStore(
  store: AppStore,
  now: Date,
  log: FastifyBaseLogger,
): Promise<HealthResponse['appStore']> {
  const timeout = deadline(PING_TIMEOUT_MS, 'the app store');
  const answers = await probe(() => Promise.race([store.ping(), timeout]), 'app store', hm.storeDown, log);
  if (answers.status === 'down') return { engine: store.kind, ...answers, writable: false };
  const write = await probe(
    () => Promise.race([writeProbe(store.db, now.toISOString()), timeout]),
    'app store',
    hm.storeNotWritable,
    log,
  );
  return write.status === 'up'
    ? { engine: store.kind, status: 'up', writable: true }
    : { engine: store.kind, status: 'up', writable: false, ...(write.error ? { error: write.error } : {}) };
}

async function checkDatabase(
  engine: DatabaseEngine,
  log: FastifyBaseLogger,
): Promise<HealthResponse['databases'][number]> {
  const answers = await probe(
    () => engine.ping(PING_TIMEOUT_MS),
    `database ${engine.name}`,
    hm.databaseDown,
    log,
  );
  return { name: engine.name, engine: engine.kind, ...answers };
}

/** Asks the app store (reading and writing) and every registered database, in parallel, whether they answer. */
export async function checkHealth(
  store: AppStore,
  databases: DatabaseRegistry,
  log: FastifyBaseLogger,
  now: Date = new Date(),
): Promise<HealthResponse> {
  const [appStore, engines] = await Promise.all([
    checkAppStore(store, now, log),
    Promise.all(databases.all().map((engine) => checkDatabase(engine, log))),
  ]);
  const down = appStore.status === 'down' || engines.some((d) => d.status === 'down');
  return {
    status: down ? 'down' : appStore.writable ? 'up' : 'degraded',
    appStore,
    databases: engines,
  };
}
