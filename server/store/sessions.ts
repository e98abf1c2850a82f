import { CompiledQuery, type Kysely, type Selectable, type Transaction } from 'kysely';
import { ACCESS_VERSION_SETTING } from './roles.ts';
import { directStatementsOf } from './statement-cache.ts';
import type { AppDatabase, SessionsTable } from './schema.ts';

type Db = Kysely<AppDatabase> | Transaction<AppDatabase>;

export type SessionRow = Selectable<SessionsTable>;

export interface NewSession {
  userId: number;
  tokenHash: string;
  expiresAt: string;
  absoluteExpiresAt: string;
  resetPassword: boolean;
  method: string;
  address: string | null;
}

/** Stores a session (its token hashed by the caller) and answers its id. */
export async function insertSession(db: Db, session: NewSession, now: string): Promise<number> {
  const row = await db
    .insertInto('sessions')
    .values({
      user_id: session.userId,
      token_hash: session.tokenHash,
      created_at: now,
      last_seen_at: now,
      expires_at: session.expiresAt,
      absolute_expires_at: session.absoluteExpiresAt,
      reauthenticated_at: now,
      reset_password: session.resetPassword ? 1 : 0,
      method: session.method,
      address: session.address,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A session that is not revoked and has not passed its sliding expiry or its absolute lifetime, with the
 * account fields a request needs, and the rights' version (`accessVersion`: '' before any change) in the same read:
 * a user's cached rights are used only while it is unchanged (docs/decisions/0034-request-path.md). */
export async function findLiveSession(
  db: Db,
  tokenHash: string,
  now: string,
): Promise<LiveSession | undefined> {
  let statement = liveSessionStatements.get(db);
  if (!statement) {
    const compiled = liveSessionQuery(db, TOKEN_PLACE, NOW_PLACE).compile();
    statement = {
      sql: compiled.sql,
      values: compiled.parameters.map((value) =>
        value === TOKEN_PLACE ? TOKEN_PLACE : value === NOW_PLACE ? NOW_PLACE : { value },
      ),
    };
    liveSessionStatements.set(db, statement);
  }
  const values = statement.values.map((place) =>
    place === TOKEN_PLACE ? tokenHash : place === NOW_PLACE ? now : place.value,
  );
  // On SQLite, from what an earlier call read while nothing has been written since, else straight on its statement,
  // unless a transaction is open on the connection (its writes are not committed yet; Kysely's driver waits for it).
  const direct = directStatementsOf(db);
  if (!direct) return (await db.executeQuery<LiveSession>(CompiledQuery.raw(statement.sql, values))).rows[0];
  const writes = direct.writes();
  const dataVersion = direct.dataVersion();
  const kept = keptSessions(direct).get(tokenHash);
  if (kept && kept.writes === writes && kept.dataVersion === dataVersion && stillLive(kept.session, now))
    return kept.session;
  if (direct.inTransaction()) {
    return (await db.executeQuery<LiveSession>(CompiledQuery.raw(statement.sql, values))).rows[0];
  }
  const found = direct.prepare(statement.sql).get(values) as LiveSession | undefined;
  keep(direct, tokenHash, found, { writes, dataVersion });
  return found;
}

/*
 * The live sessions an SQLite store's calls found, kept while nothing has been written to the store since (issue 17
 * target 2: the session read was the costliest step of a signed-in call that DBUI adds; decision 0040). Every write
 * through the store changes `writes()` before it happens, and a change committed by any other connection (another
 * process, someone with the sqlite3 tool) changes what `dataVersion()` answers from the next turn of the event loop
 * (statement-cache.ts). While both stand, the file holds what the kept session was read from, so a sign-out, a
 * revocation, a lock, a role change (the rights' version) or a recorded use counts at the next call exactly as a
 * fresh read would (a change made by another process, at the calls of the next turn: those of this one had already
 * arrived). A kept session is never used
 * past its sliding expiry or absolute lifetime. A PostgreSQL store is read at every call.
 */
const KEPT_AT_MOST = 10_000;

/** What a kept session was read under. */
interface ReadUnder {
  writes: number;
  dataVersion: number;
}

interface KeptSession extends ReadUnder {
  session: LiveSession;
}

const stillLive = (session: LiveSession, now: string) =>
  now < session.expires_at && now < session.absolute_expires_at;

const keptByStore = new WeakMap<object, Map<string, KeptSession>>();

function keptSessions(direct: object): Map<string, KeptSession> {
  let kept = keptByStore.get(direct);
  if (!kept) keptByStore.set(direct, (kept = new Map()));
  return kept;
}

function keep(direct: object, tokenHash: string, found: LiveSession | undefined, under: ReadUnder) {
  const kept = keptSessions(direct);
  kept.delete(tokenHash);
  if (!found) return;
  if (kept.size >= KEPT_AT_MOST) kept.delete(kept.keys().next().value as string);
  kept.set(tokenHash, { ...under, session: Object.freeze(found) });
}

/*
 * findLiveSession runs on every signed-in call, and building and compiling its statement with Kysely cost more than
 * running it (issue 17 target 2): it is compiled once per database handle (the dialect decides the SQL) with
 * placeholders where the token and the time go, and run with the call's values in their places; on an SQLite store
 * directly on its cached statement (statement-cache.ts directStatementsOf).
 */
const TOKEN_PLACE = '\u0000token hash';
const NOW_PLACE = '\u0000now';
const liveSessionStatements = new WeakMap<
  Db,
  { sql: string; values: (typeof TOKEN_PLACE | typeof NOW_PLACE | { value: unknown })[] }
>();

function liveSessionQuery(db: Db, tokenHash: string, now: string) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .where('sessions.token_hash', '=', tokenHash)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', now)
    .where('sessions.absolute_expires_at', '>', now)
    .select((eb) => [
      eb
        .selectFrom('settings')
        .select('settings.value')
        .where('settings.name', '=', ACCESS_VERSION_SETTING)
        .as('access_version'),
      'sessions.id',
      'sessions.user_id',
      'sessions.expires_at',
      'sessions.absolute_expires_at',
      'sessions.last_seen_at',
      'sessions.reauthenticated_at',
      'sessions.reset_password',
      'users.username',
      'users.password_expired',
      'users.password_changed_at',
    ]);
}

export type LiveSession = NonNullable<
  Awaited<ReturnType<ReturnType<typeof liveSessionQuery>['executeTakeFirst']>>
>;

/** Whether session `id` of user `userId` lives at `now` (not ended, within its sliding expiry and its absolute
 * lifetime): read from the app store, so every instance sharing it answers alike. An administrator's lock ends every
 * session of the account, so a locked owner's session never passes. An export is reachable only while the session
 * that started it passes this (decision 0044). */
export async function sessionLives(db: Db, id: number | null, userId: number, now: string): Promise<boolean> {
  if (id === null) return false;
  const row = await db
    .selectFrom('sessions')
    .select('sessions.id')
    .where('sessions.id', '=', id)
    .where('sessions.user_id', '=', userId)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', now)
    .where('sessions.absolute_expires_at', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}

/** Records activity unless some was recorded after `lastBefore` (so instances sharing the store write it once): the
 * sliding expiry moves to `expiresAt` (already capped by the absolute lifetime). True when this call recorded it. */
export async function touchSession(
  db: Db,
  id: number,
  at: { now: string; lastBefore: string; expiresAt: string },
): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ last_seen_at: at.now, expires_at: at.expiresAt })
    .where('id', '=', id)
    .where('last_seen_at', '<=', at.lastBefore)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Marks a recent proof of the password or a code. */
export async function markReauthenticated(db: Db, id: number, now: string): Promise<void> {
  await db.updateTable('sessions').set({ reauthenticated_at: now }).where('id', '=', id).execute();
}

/** Clears the forgot-password mark once the password has been changed. */
export async function clearResetMark(db: Db, id: number): Promise<void> {
  await db.updateTable('sessions').set({ reset_password: 0 }).where('id', '=', id).execute();
}

/** Ends one session. */
export async function revokeSession(db: Db, id: number, now: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Ends every session of an account except `keepId` (null: all of them); answers how many ended. */
export async function revokeSessionsOfUser(
  db: Db,
  userId: number,
  keepId: number | null,
  now: string,
): Promise<number> {
  let query = db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (keepId !== null) query = query.where('id', '!=', keepId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}
