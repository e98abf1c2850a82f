import { sql, type Kysely } from 'kysely';

/*
 * The one interface through which everything else reaches the databases people browse. Issue 3 grows it
 * (catalog, page, upsert, delete, stream, capability flags); the foundation needs connections and health.
 */

/** The engines a browsable database can live on. */
export type EngineKind = 'sqlite' | 'postgres' | 'mysql' | 'mssql';

/** Tables of a browsed database are only known at run time, from its catalog. */
export type DynamicSchema = Record<string, Record<string, unknown>>;

/** Connection settings every adapter honours. */
export interface EngineOptions {
  /** Longest a statement may run before the engine cancels it (ms). */
  statementTimeoutMs: number;
  /** Most connections the pool opens. */
  poolSize: number;
}

export const defaultEngineOptions: EngineOptions = { statementTimeoutMs: 15_000, poolSize: 10 };

/** A registered database: a name people see, an engine, and a pooled connection. */
export interface DatabaseEngine {
  readonly name: string;
  readonly kind: EngineKind;
  readonly db: Kysely<DynamicSchema>;
  /** Resolves when the database answers a trivial query within `timeoutMs`, else rejects. */
  ping(timeoutMs?: number): Promise<void>;
  /** Closes the pool; waits for queries in flight. */
  close(): Promise<void>;
}

/** Builds a DatabaseEngine around a Kysely instance: the shared part of every adapter. */
export function engineOf(name: string, kind: EngineKind, db: Kysely<DynamicSchema>): DatabaseEngine {
  return {
    name,
    kind,
    db,
    ping: async (timeoutMs = 3000) => {
      await withTimeout(
        sql`select 1`.execute(db),
        timeoutMs,
        `${name} did not answer within ${timeoutMs} ms`,
      );
    },
    close: () => db.destroy(),
  };
}

function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
