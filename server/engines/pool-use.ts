import type { Kysely } from 'kysely';
import type { DynamicSchema } from './engine.ts';

/** A pool's connections at one moment: open (idle or in use), idle, and calls waiting for one. */
export interface PoolUse {
  open: number;
  idle: number;
  waiting: number;
}

/* Where the engine's driver can tell (pg and mysql2 pools); SQLite (in-process) and SQL Server have no entry, and
 * the metrics skip them. Kept beside the engines, keyed by the engine's Kysely instance, so the engine interface
 * does not grow a method for the metrics alone (issue 18). */
const pools = new WeakMap<Kysely<DynamicSchema>, () => PoolUse>();

/** Remembers how to read a pool's use (the engines' connect.ts). */
export function registerPoolUse(db: Kysely<DynamicSchema>, read: () => PoolUse): void {
  pools.set(db, read);
}

/** The pool's use now, or null when the engine does not expose it. */
export function poolUseOf(db: Kysely<DynamicSchema>): PoolUse | null {
  return pools.get(db)?.() ?? null;
}
