import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseRegistry } from '#server/engines/database-registry.ts';

/** Every table of every registered database with its TableId, for the permission form. A database that does not
 * answer is left out (and logged) rather than failing the whole list. */
export async function allTables(databases: DatabaseRegistry, log: FastifyBaseLogger) {
  const lists = await Promise.all(
    databases.all().map(async (engine) => {
      try {
        return (await engine.catalog()).map((t) => ({
          TableId: t.id,
          database: engine.name,
          schema: t.schema,
          name: t.name,
          isView: t.isView,
        }));
      } catch (error) {
        log.warn({ err: error, database: engine.name }, 'catalog unavailable for the table list');
        return [];
      }
    }),
  );
  return lists.flat();
}
