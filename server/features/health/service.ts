import type { HealthResponse } from '#common/contract/health.ts';
import type { DatabaseRegistry } from '#server/engines/database-registry.ts';
import type { AppStore } from '#server/store/app-store.ts';

const PING_TIMEOUT_MS = 3000;

async function probe(ping: () => Promise<void>): Promise<{ status: 'up' | 'down'; error?: string }> {
  try {
    await ping();
    return { status: 'up' };
  } catch (error) {
    return { status: 'down', error: error instanceof Error ? error.message : String(error) };
  }
}

/** Asks the app store and every registered database, in parallel, whether they answer. */
export async function checkHealth(store: AppStore, databases: DatabaseRegistry): Promise<HealthResponse> {
  const storeTimeout = new Promise<never>((_, reject) =>
    setTimeout(
      () => reject(new Error(`the app store did not answer within ${PING_TIMEOUT_MS} ms`)),
      PING_TIMEOUT_MS,
    ).unref(),
  );
  const [appStore, engines] = await Promise.all([
    probe(() => Promise.race([store.ping(), storeTimeout])),
    Promise.all(
      databases.all().map(async (engine) => ({
        name: engine.name,
        engine: engine.kind,
        ...(await probe(() => engine.ping(PING_TIMEOUT_MS))),
      })),
    ),
  ]);
  const report: HealthResponse = {
    status: 'up',
    appStore: { engine: store.kind, ...appStore },
    databases: engines,
  };
  if (report.appStore.status === 'down' || report.databases.some((d) => d.status === 'down'))
    report.status = 'down';
  return report;
}
