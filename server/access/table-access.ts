import type { FastifyRequest } from 'fastify';
import type { Table, TableParams } from '#common/contract/sql.ts';
import { accountApiMessages } from '#common/messages.ts';
import type { DatabaseEngine } from '#server/engines/engine.ts';
import type { DatabaseRegistry } from '#server/engines/database-registry.ts';
import {
  requireDatabaseAccess,
  requireTableAccess,
  type TableAction,
  type TableRef,
} from '#server/access/policy.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import type { SignedInAccount } from '#server/plugins/session.ts';

/*
 * The order every data call follows: signed in (the route's preHandler) → the access policy, decided from the links
 * and permissions alone so a refusal never tells whether the table exists → the catalog lookup (a 404 only for
 * callers allowed to see the table) → the work.
 */

/** What opening a table needs: the app store for rights and the registered databases (a feature's own context,
 * like features/sql's SqlContext, adds to it). */
export interface TableAccessContext {
  store: AppStore;
  databases: DatabaseRegistry;
}

/** Who is asking and from where (for the audit trail). */
export interface Caller {
  account: SignedInAccount;
  address: string | null;
}

/** A job row (export, bulk change, import) as its owner check reads it. */
export interface TableJobOwner {
  user_id: number;
  database_name: string;
  schema_name: string;
  table_name: string;
}

/**
 * Whether a job is the caller's and of the path's table: the export, bulk and import calls answer anything else with
 * the same 404 as no job, so another user's job is not told apart from none.
 */
export function ownsTableJob(job: TableJobOwner, caller: Caller, ref: TableRef): boolean {
  return (
    job.user_id === caller.account.userId &&
    job.database_name === ref.database &&
    job.schema_name === ref.schema &&
    job.table_name === ref.table
  );
}

/** A registered database by name, or a 404. */
/** The table a route's path names. */
export const refOf = (params: TableParams): TableRef => ({
  database: params.db,
  schema: params.schema,
  table: params.table,
});

/** The signed-in caller of a data route (its preValidation hook has refused everyone else). */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.account) throw new ApiError(401, accountApiMessages.signInRequired);
  return { account: request.account, address: request.ip };
}

export function databaseNamed(context: TableAccessContext, name: string): DatabaseEngine {
  const engine = context.databases.get(name);
  if (!engine) throw new ApiError(404, `The database ${name} was not found.`);
  return engine;
}

/** The database after the policy allowed it. */
export async function openDatabase(
  context: TableAccessContext,
  caller: Caller,
  name: string,
): Promise<DatabaseEngine> {
  await requireDatabaseAccess(context.store, caller.account, name, caller.address);
  return databaseNamed(context, name);
}

/** The table after the policy allowed `action` on it: its engine and catalog entry. */
export async function openTable(
  context: TableAccessContext,
  caller: Caller,
  ref: TableRef,
  action: TableAction,
): Promise<{ engine: DatabaseEngine; table: Table }> {
  await requireTableAccess(context.store, caller.account, ref, action, caller.address);
  const engine = databaseNamed(context, ref.database);
  return { engine, table: await engine.table(ref.schema, ref.table) };
}
