import type { HealthResponse } from '#common/contract/health.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import type { DatabaseRegistry } from '#server/engines/database-registry.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { writeProbe } from '#server/store/settings.ts';

const PING_TIMEOUT_MS = 3000;

async function probe(ping: () => Promise<void>): Promise<{ status: 'up' | 'down'; error?: string }> {
  try {
    await ping();
    return { status: 'up' };
  } catch (error) {
    return { status: 'down', error: error instanceof Error ? error.message : String(error) };
  }
}

/** Rejects after `ms`, so a store that does not answer cannot hold the health check. */
function deadline(ms: number, what: string): Promise<never> {
  return new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms).unref(),
  );
}

/** Whether the app store answers and takes a write (a probe row in `settings`, decision 0013). */
async function checkAppStore(store: AppStore, now: Date): Promise<HealthResponse['appStore']> {
  const timeout = deadline(PING_TIMEOUT_MS, 'the app store');
  const answers = await probe(() => Promise.race([store.ping(), timeout]));
  if (answers.status === 'down') return { engine: store.kind, ...answers, writable: false };
  const write = await probe(() => Promise.race([writeProbe(store.db, now.toISOString()), timeout]));
  return write.status === 'up'
    ? { engine: store.kind, status: 'up', writable: true }
    : {
        engine: store.kind,
        status: 'up',
        writable: false,
        error: `the app store answers but cannot be written: ${write.error ?? 'the write failed'}`,
      };
}

async function checkDatabase(engine: DatabaseEngine): Promise<HealthResponse['databases'][number]> {
  return { name: engine.name, engine: engine.kind, ...(await probe(() => engine.ping(PING_TIMEOUT_MS))) };
}

/** Asks the app store (reading and writing) and every registered database, in parallel, whether they answer. */
export async function checkHealth(
  store: AppStore,
  databases: DatabaseRegistry,
  now: Date = new Date(),
): Promise<HealthResponse> {
  const [appStore, engines] = await Promise.all([
    checkAppStore(store, now),
    Promise.all(databases.all().map(checkDatabase)),
  ]);
  const down = appStore.status === 'down' || engines.some((d) => d.status === 'down');
  return {
    status: down ? 'down' : appStore.writable ? 'up' : 'degraded',
    appStore,
    databases: engines,
  };
}
