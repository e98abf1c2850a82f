import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { DatabaseRegistry } from '#server/engines/database-registry.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { sharedSecret } from '#server/store/settings.ts';

/*
 * The catalog (tables, columns, keys) is cached per instance for a few minutes (engines/table-engine.ts). When an
 * administrator asks for a refresh (GET /api/sql/{db}?refresh=true), the instance that answers reads the catalog
 * again, and with REDIS_URL it also publishes the database's name on the app store's catalog channel: every other
 * instance reads that database's catalog again at once. Without Redis the refresh is this instance's only, as
 * before. A message lost while Redis is down costs nothing worse than the cache's own expiry.
 */

/** How long a start waits for the subscription before it goes on (ioredis keeps trying and subscribes later). */
const SUBSCRIBE_WAIT_MS = 2_000;
/** How long an administrator's refresh waits for Redis to take the message. */
const PUBLISH_WAIT_MS = 1_000;

/** What goes on the channel: the database and who sent it (an instance ignores its own messages). */
const catalogMessage = z.object({ from: z.string(), database: z.string() });

export interface CatalogRefresh {
  readonly mode: 'local' | 'redis';
  /** Tells every other instance to read `database`'s catalog again (this one has just done so); never throws. */
  announce(database: string): Promise<void>;
  close(): Promise<void>;
}

/** The app store's catalog channel on Redis: instances sharing an app store share it, and nothing else does. */
export async function catalogChannel(store: AppStore): Promise<string> {
  return `dbui:catalog:${await sharedSecret(store.db, 'catalog-channel', () => randomUUID())}`;
}

/** The catalog refresh across instances: through Redis with `redisUrl`, else a no-op (per instance). */
export async function catalogRefresh(deps: {
  redisUrl: string | null;
  store: AppStore;
  databases: DatabaseRegistry;
  log: FastifyBaseLogger;
}): Promise<CatalogRefresh> {
  const { redisUrl, databases, log } = deps;
  if (!redisUrl) return { mode: 'local', announce: async () => undefined, close: async () => undefined };

  const channel = await catalogChannel(deps.store);
  const self = randomUUID();
  // Loaded only with REDIS_URL. A subscribing connection can do nothing else, so publishing has its own.
  const { Redis: Client } = await import('ioredis');
  const options = { connectTimeout: 1_000, retryStrategy: (times: number) => Math.min(times * 200, 2_000) };
  const subscriber: Redis = new Client(redisUrl, options);
  const publisher: Redis = new Client(redisUrl, { ...options, maxRetriesPerRequest: 1 });
  let down = false;
  const onError = (error: Error) => {
    if (!down)
      log.warn({ err: error }, 'catalog refresh: Redis does not answer; refreshes stay on this instance');
    down = true;
  };
  subscriber.on('error', onError);
  publisher.on('error', onError);
  subscriber.on('ready', () => {
    if (down) log.info('catalog refresh: Redis answers again');
    down = false;
  });
  subscriber.on('message', (_channel: string, text: string) => {
    let message: z.infer<typeof catalogMessage>;
    try {
      message = catalogMessage.parse(JSON.parse(text));
    } catch {
      log.warn('catalog refresh: a message that is not ours was ignored');
      return;
    }
    if (message.from === self) return;
    const engine = databases.get(message.database);
    if (!engine) return;
    // Read again now, so the next call finds it ready; a database that does not answer is tried at the next call.
    engine.catalog({ refresh: true }).then(
      () => log.info({ database: message.database }, 'catalog refreshed at another instance’s request'),
      (error: unknown) =>
        log.warn(
          { err: error, database: message.database },
          'catalog refresh at another instance’s request failed',
        ),
    );
  });

  // ioredis subscribes again by itself after a reconnection. The start waits for the first subscription only while
  // Redis may answer: a refused connection (Redis down) goes on at once, a silent one after SUBSCRIBE_WAIT_MS.
  const subscribed = subscriber.subscribe(channel);
  let timer: NodeJS.Timeout | undefined;
  let failed: ((error: Error) => void) | undefined;
  const waited = await Promise.race([
    subscribed.then(
      () => true,
      () => false,
    ),
    new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), SUBSCRIBE_WAIT_MS);
      failed = () => resolve(false);
      subscriber.once('error', failed);
    }),
  ]);
  clearTimeout(timer);
  if (failed) subscriber.off('error', failed);
  if (!waited) log.warn('catalog refresh: not subscribed yet; it will be when Redis answers');
  subscribed.catch(() => undefined);

  // A connection that is not up (Redis down) is dropped rather than asked to quit, which would wait for it.
  const quit = async (client: Redis) => {
    if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
    else client.disconnect();
  };
  return {
    mode: 'redis',
    async announce(database) {
      // Not longer than PUBLISH_WAIT_MS: the administrator's answer does not wait for a Redis that is down.
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          publisher.publish(channel, JSON.stringify({ from: self, database })),
          new Promise<never>((_, reject) => {
            timer = setTimeout(
              () => reject(new Error(`no answer within ${PUBLISH_WAIT_MS} ms`)),
              PUBLISH_WAIT_MS,
            );
          }),
        ]);
      } catch (error) {
        log.warn({ err: error, database }, 'catalog refresh: other instances were not told');
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      await Promise.all([quit(subscriber), quit(publisher)]);
    },
  };
}
