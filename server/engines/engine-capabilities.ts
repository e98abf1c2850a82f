import type { EngineCapabilities } from './capabilities.ts';
import type { EngineKind } from './engine.ts';
import { mssqlCapabilities } from './mssql/capabilities.ts';
import { mysqlCapabilities } from './mysql/capabilities.ts';
import { postgresCapabilities } from './postgres/capabilities.ts';
import { sqliteCapabilities } from './sqlite/capabilities.ts';

/*
 * Every engine's capabilities by kind. The files it imports hold one constant each, so the adapters and their
 * drivers still load only when a database of their kind is registered (connect.ts).
 */
const capabilitiesByKind: Record<EngineKind, Readonly<EngineCapabilities>> = {
  sqlite: sqliteCapabilities,
  postgres: postgresCapabilities,
  mysql: mysqlCapabilities,
  mssql: mssqlCapabilities,
};

/** What an engine of this kind can do (the flags of engines/capabilities.ts). */
export const engineCapabilities = (kind: EngineKind): Readonly<EngineCapabilities> =>
  capabilitiesByKind[kind];
