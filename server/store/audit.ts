import { sql, type Kysely, type Transaction } from 'kysely';
import type { AppDatabase, AuditState } from './schema.ts';

export type { AuditState } from './schema.ts';

/** One entry of the audit trail. */
export interface AuditEntry {
  userId: number | null;
  action: string;
  target?: string | null;
  detail?: Record<string, unknown> | null;
  address?: string | null;
  /** On a `data.undo` entry: the entry it undid. */
  undoOf?: number | null;
}

function insertAudit(
  db: Kysely<AppDatabase> | Transaction<AppDatabase>,
  entry: AuditEntry,
  state: AuditState,
  at: string,
) {
  return db
    .insertInto('audit_log')
    .values({
      at,
      user_id: entry.userId,
      action: entry.action,
      target: entry.target ?? null,
      detail: entry.detail ? JSON.stringify(entry.detail) : null,
      address: entry.address ?? null,
      undo_of: entry.undoOf ?? null,
      state,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/** Appends an entry to the audit trail; answers its id. */
export async function writeAudit(
  db: Kysely<AppDatabase> | Transaction<AppDatabase>,
  entry: AuditEntry,
): Promise<number> {
  return (await insertAudit(db, entry, 'done', new Date().toISOString())).id;
}

/**
 * Appends an entry as an intent ('pending'): written before the change it describes commits, confirmed after
 * (confirmAudit), dropped when the change did not happen (dropAuditIntent). Answers its id.
 */
export async function writeAuditIntent(db: Db, entry: AuditEntry): Promise<number> {
  return (await insertAudit(db, entry, 'pending', new Date().toISOString())).id;
}

/** Replaces an entry's detail (an intent's, once the change is known; an undo's, once it is made). */
export async function setAuditDetail(db: Db, id: number, detail: Record<string, unknown>): Promise<void> {
  await db
    .updateTable('audit_log')
    .set({ detail: JSON.stringify(detail) })
    .where('id', '=', id)
    .execute();
}

/** Marks an intent done (the change happened); false when the entry is gone (a resolution dropped it meanwhile). */
export async function confirmAudit(db: Db, id: number): Promise<boolean> {
  const result = await db
    .updateTable('audit_log')
    .set({ state: 'done' })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Marks an intent whose change could not be told to have happened or not; its detail says why. */
export async function markAuditUncertain(db: Db, id: number, detail: Record<string, unknown>): Promise<void> {
  await db
    .updateTable('audit_log')
    .set({ state: 'uncertain', detail: JSON.stringify(detail) })
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .execute();
}

/** Deletes an intent whose change did not happen (only while it is still pending). */
export async function dropAuditIntent(db: Db, id: number): Promise<void> {
  await db.deleteFrom('audit_log').where('id', '=', id).where('state', '=', 'pending').execute();
}

/** An open intent, as resolution reads it. */
export interface AuditIntent {
  id: number;
  at: string;
  action: string;
  target: string | null;
  detail: string | null;
  undo_of: number | null;
}

const intentColumns = ['id', 'at', 'action', 'target', 'detail', 'undo_of'] as const;

/** The intents still open that were written before `before` (ISO-8601 UTC), after entry `afterId`, oldest first. */
export async function openAuditIntents(
  db: Db,
  before: string,
  afterId = 0,
  limit = 500,
): Promise<AuditIntent[]> {
  return db
    .selectFrom('audit_log')
    .select(intentColumns)
    .where('state', '=', 'pending')
    .where('at', '<', before)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** One intent, if it is still open. */
export async function findAuditIntent(db: Db, id: number): Promise<AuditIntent | undefined> {
  return db
    .selectFrom('audit_log')
    .select(intentColumns)
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .executeTakeFirst();
}

/** The done data changes of a target written after entry `afterId`, oldest first (what happened to its rows next). */
export async function laterDataChanges(
  db: Db,
  target: string,
  afterId: number,
  limit = 200,
): Promise<{ id: number; action: string; detail: string | null }[]> {
  return db
    .selectFrom('audit_log')
    .select(['id', 'action', 'detail'])
    .where('target', '=', target)
    .where('id', '>', afterId)
    .where('state', '=', 'done')
    .where('action', 'in', ['data.insert', 'data.update', 'data.delete', 'data.undo'])
    .orderBy('id')
    .limit(limit)
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
  state: AuditState;
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
  'audit_log.state',
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
 * Claims the undo of an entry by writing its `data.undo` entry first, as an intent ('pending' until the undo is made
 * and confirmed): answers the new entry's id, or null when the entry was undone (or is being undone) already.
 * `undo_of` is unique, so of two racing undos one gets null.
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
        state: 'pending',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return claimed.id;
  } catch (error) {
    if (await findUndoOf(db, entry.of)) return null;
    throw error;
  }
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

/** The data changes an audit detail records (`data.undo` included: an undo changes its row too). */
const DATA_CHANGE_ACTIONS = ['data.insert', 'data.update', 'data.delete', 'data.undo'];

/**
 * Data change entries of a target whose detail names the key `keyJson` (the key object as JSON, in the table's key
 * order, as row-audit.ts writes it), newest first, `offset` into them. The key is looked for as text inside the
 * detail ("key":{…}), a narrowing in the database; callers compare the parsed key exactly, since SQLite's LIKE
 * ignores the case of ASCII letters.
 */
export async function auditOfKey(
  db: Db,
  target: string,
  keyJson: string,
  page: { offset: number; limit: number },
): Promise<StoredAuditEntry[]> {
  const pattern = `%${`"key":${keyJson}`.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return db
    .selectFrom('audit_log')
    .leftJoin('users', 'users.id', 'audit_log.user_id')
    .select(entryColumns)
    .where('audit_log.target', '=', target)
    .where('audit_log.action', 'in', DATA_CHANGE_ACTIONS)
    .where(sql<boolean>`${sql.ref('audit_log.detail')} like ${pattern} escape '\\'`)
    .orderBy('audit_log.at', 'desc')
    .orderBy('audit_log.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** The done `data.undo` entries that undid any of these entries: entry id → undo id. A pending undo may yet turn
 * out not to have happened, so it does not count. */
export async function undosOf(db: Db, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const undos = await db
    .selectFrom('audit_log')
    .select(['id', 'undo_of'])
    .where('undo_of', 'in', ids)
    .where('state', '<>', 'pending')
    .execute();
  return new Map(undos.flatMap((u) => (u.undo_of === null ? [] : [[u.undo_of, u.id] as const])));
}
