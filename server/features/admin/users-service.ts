import type { Kysely, Transaction } from 'kysely';
import type { AdminUser } from '#common/contract/admin.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { writeAudit } from '#server/store/audit.ts';
import { startsWithIgnoringCase } from '#server/store/roles.ts';
import type { AppDatabase } from '#server/store/schema.ts';
import { revokeSessionsOfUser } from '#server/store/sessions.ts';

/** A page of users sorted by id, filtered by username prefix (case-insensitive), each with their roles. */
export async function pageOfUsers(
  store: AppStore,
  query: { page: number; pageSize: number; username?: string | undefined },
): Promise<{ results: AdminUser[]; count: number }> {
  const username = query.username;
  const base = username
    ? store.db.selectFrom('users').where(startsWithIgnoringCase('users.username', username))
    : store.db.selectFrom('users');
  const [users, total] = await Promise.all([
    base
      .select([
        'id',
        'username',
        'email',
        'first_name',
        'last_name',
        'email_verified_at',
        'password_expired',
        'locked_until',
        'created_at',
      ])
      .orderBy('id')
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst(),
  ]);
  const roles = users.length
    ? await store.db
        .selectFrom('user_roles')
        .innerJoin('roles', 'roles.id', 'user_roles.role_id')
        .select(['user_roles.user_id', 'roles.id', 'roles.name', 'roles.is_admin'])
        .where(
          'user_roles.user_id',
          'in',
          users.map((u) => u.id),
        )
        .orderBy('roles.id')
        .execute()
    : [];
  return {
    count: Number(total?.n ?? 0),
    results: users.map((u) => {
      const mine = roles.filter((r) => r.user_id === u.id);
      return {
        id: u.id,
        username: u.username,
        email: u.email,
        firstName: u.first_name,
        lastName: u.last_name,
        isAdmin: mine.some((r) => r.is_admin === 1),
        emailVerified: u.email_verified_at !== null,
        passwordExpired: u.password_expired === 1,
        lockedUntil: u.locked_until,
        createdAt: u.created_at,
        roles: mine.map((r) => ({ Id: r.id, Name: r.name })),
        // Being built (issue 14): the server helper fills these.
        isLocked: u.locked_until !== null && u.locked_until > new Date().toISOString(),
        lastSignInAt: null,
        twoFactor: [],
      };
    }),
  };
}

/**
 * Locking an account, like deleting it, ends every session of it at once (docs/decisions/0013-lockout-and-sessions.md).
 * Called in the transaction that writes `locked_until`, so the sessions end exactly when the lock lands; a sign-in
 * finishing at that moment checks the lock after its session exists (account/session-service.ts), so none slips by.
 */
export async function endSessionsIfLocked(
  db: Kysely<AppDatabase> | Transaction<AppDatabase>,
  userId: number,
  lockedUntil: unknown,
  caller: { userId: number; address: string | null },
  now: Date,
): Promise<void> {
  if (typeof lockedUntil !== 'string' || lockedUntil <= now.toISOString()) return;
  const ended = await revokeSessionsOfUser(db, userId, null, now.toISOString());
  await writeAudit(db, {
    userId: caller.userId,
    action: 'account.sessions-ended',
    target: `user:${userId}`,
    detail: { reason: 'locked', until: lockedUntil, sessions: ended },
    address: caller.address,
  });
}
