import type { Kysely, Transaction } from 'kysely';
import type { AppDatabase } from './schema.ts';

/** One entry of the audit trail. */
export interface AuditEntry {
  userId: number | null;
  action: string;
  target?: string | null;
  detail?: Record<string, unknown> | null;
  address?: string | null;
}

/** Appends an entry to the audit trail. */
export async function writeAudit(
  db: Kysely<AppDatabase> | Transaction<AppDatabase>,
  entry: AuditEntry,
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      at: new Date().toISOString(),
      user_id: entry.userId,
      action: entry.action,
      target: entry.target ?? null,
      detail: entry.detail ? JSON.stringify(entry.detail) : null,
      address: entry.address ?? null,
    })
    .execute();
}

/** An entry as stored, with the username of its author (null when the account is gone). */
export interface StoredAuditEntry {
  id: number;
  at: string;
  user_id: number | null;
  username: string | null;
  action: string;
  target: string | null;
  detail: string | null;
  address: string | null;
  undo_of: number | null;
}

/** What the audit list can be narrowed to; every filter is answered from an index (0001, 0006). */
export interface AuditFilter {
  userId?: number | undefined;
  /** Exact targets (a table's is /db/{db}/{schema}/{table}). */
  target?: string | undefined;
  /** Exact actions, any of them. */
  actions?: string[] | undefined;
  /** Inclusive lower bound, ISO-8601 UTC. */
  from?: string | undefined;
  /** Exclusive upper bound, ISO-8601 UTC. */
  to?: string | undefined;
}

type Db = Kysely<AppDatabase> | Transaction<AppDatabase>;

function filtered(db: Db, filter: AuditFilter) {
  let query = db.selectFrom('audit_log');
  if (filter.userId !== undefined) query = query.where('audit_log.user_id', '=', filter.userId);
  if (filter.target !== undefined) query = query.where('audit_log.target', '=', filter.target);
  if (filter.actions?.length) query = query.where('audit_log.action', 'in', filter.actions);
  if (filter.from !== undefined) query = query.where('audit_log.at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('audit_log.at', '<', filter.to);
  return query;
}

/** What an entry answers: its fields and the username of whoever made it. */
const entryColumns = [
  'audit_log.id',
  'audit_log.at',
  'audit_log.user_id',
  'users.username',
  'audit_log.action',
  'audit_log.target',
  'audit_log.detail',
  'audit_log.address',
  'audit_log.undo_of',
] as const;

/** A page of entries, newest first, and how many match. */
export async function listAudit(
  db: Db,
  filter: AuditFilter,
  page: { offset: number; limit: number },
): Promise<{ rows: StoredAuditEntry[]; count: number }> {
  const [rows, total] = await Promise.all([
    filtered(db, filter)
      .leftJoin('users', 'users.id', 'audit_log.user_id')
      .select(entryColumns)
      .orderBy('audit_log.at', 'desc')
      .orderBy('audit_log.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    filtered(db, filter)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirst(),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

/** One entry by id. */
export async function findAudit(db: Db, id: number): Promise<StoredAuditEntry | undefined> {
  return db
    .selectFrom('audit_log')
    .leftJoin('users', 'users.id', 'audit_log.user_id')
    .select(entryColumns)
    .where('audit_log.id', '=', id)
    .executeTakeFirst();
}

/** The `data.undo` entry that undid an entry, if any. */
export async function findUndoOf(db: Db, id: number): Promise<{ id: number; at: string } | undefined> {
  return db.selectFrom('audit_log').select(['id', 'at']).where('undo_of', '=', id).executeTakeFirst();
}

/**
 * Claims the undo of an entry by writing its `data.undo` entry first: answers the new entry's id, or null when the
 * entry was undone (or is being undone) already. `undo_of` is unique, so of two racing undos one gets null.
 */
export async function claimUndo(
  db: Db,
  entry: { userId: number; target: string | null; of: number; address: string | null; at: string },
): Promise<number | null> {
  try {
    const claimed = await db
      .insertInto('audit_log')
      .values({
        at: entry.at,
        user_id: entry.userId,
        action: 'data.undo',
        target: entry.target,
        detail: JSON.stringify({ of: entry.of }),
        address: entry.address,
        undo_of: entry.of,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return claimed.id;
  } catch (error) {
    if (await findUndoOf(db, entry.of)) return null;
    throw error;
  }
}

/** Records what an undo did, on its claimed entry. */
export async function completeUndo(db: Db, id: number, detail: Record<string, unknown>): Promise<void> {
  await db
    .updateTable('audit_log')
    .set({ detail: JSON.stringify(detail) })
    .where('id', '=', id)
    .execute();
}

/** Drops the claim of an undo that changed nothing (it was refused or failed), so it can be tried again. */
export async function releaseUndo(db: Db, id: number): Promise<void> {
  await db.deleteFrom('audit_log').where('id', '=', id).where('action', '=', 'data.undo').execute();
}

/** Deletes the entries older than `before` (ISO-8601 UTC) in batches, so a big backlog does not hold one long
 * transaction; answers how many went. */
export async function deleteAuditBefore(
  db: Kysely<AppDatabase>,
  before: string,
  batch = 10_000,
): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await db
      .deleteFrom('audit_log')
      .where('id', 'in', (eb) =>
        eb.selectFrom('audit_log').select('id').where('at', '<', before).orderBy('id').limit(batch),
      )
      .executeTakeFirst();
    const deleted = Number(result.numDeletedRows);
    total += deleted;
    if (deleted < batch) return total;
  }
}
