import type { Kysely, Transaction } from 'kysely';
import type { AdminUser, AdminUserDetail } from '#common/contract/admin.ts';
import { userMessages } from '#common/contract/admin.ts';
import { verifiedMethods } from '#server/features/account/sign-in-methods.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { writeAudit } from '#server/store/audit.ts';
import { countRecoveryCodes } from '#server/store/recovery-codes.ts';
import { startsWithIgnoringCase } from '#server/store/roles.ts';
import type { AppDatabase } from '#server/store/schema.ts';
import { revokeSessionsOfUser } from '#server/store/sessions.ts';

type Db = Kysely<AppDatabase> | Transaction<AppDatabase>;

/** The audit actions of a completed sign-in: password and code (or passkey: `sign-in` with method Passkey), a
 * forgot-password sign-in, and social sign-in. */
export const SIGN_IN_ACTIONS = ['sign-in', 'sign-in.password-reset', 'social.sign-in'] as const;

const userColumns = [
  'id',
  'username',
  'email',
  'first_name',
  'last_name',
  'email_verified_at',
  'phone',
  'phone_verified_at',
  'totp_secret',
  'totp_verified_at',
  'preferred_2fa',
  'password_expired',
  'failed_logins',
  'locked_until',
  'created_at',
] as const;

type UserFields = {
  id: number;
  username: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  email_verified_at: string | null;
  phone: string | null;
  phone_verified_at: string | null;
  totp_secret: string | null;
  totp_verified_at: string | null;
  preferred_2fa: string | null;
  password_expired: number;
  failed_logins: number;
  locked_until: string | null;
  created_at: string;
};

/** What the list shows of each user beside their own row, read for the whole page at once: roles, the last
 * sign-in (one grouped query over the audit trail) and whether they have a passkey. */
async function extrasOf(db: Db, userIds: number[]) {
  if (userIds.length === 0)
    return { roles: [], lastSignIns: new Map<number, string>(), withPasskey: new Set<number>() };
  const [roles, signIns, passkeys] = await Promise.all([
    db
      .selectFrom('user_roles')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .select(['user_roles.user_id', 'roles.id', 'roles.name', 'roles.is_admin'])
      .where('user_roles.user_id', 'in', userIds)
      .orderBy('roles.id')
      .execute(),
    db
      .selectFrom('audit_log')
      .select(['user_id', (eb) => eb.fn.max('at').as('at')])
      .where('user_id', 'in', userIds)
      .where('action', 'in', [...SIGN_IN_ACTIONS])
      .groupBy('user_id')
      .execute(),
    db.selectFrom('passkeys').select('user_id').distinct().where('user_id', 'in', userIds).execute(),
  ]);
  return {
    roles,
    lastSignIns: new Map(signIns.flatMap((s) => (s.user_id === null ? [] : [[s.user_id, s.at] as const]))),
    withPasskey: new Set(passkeys.map((p) => p.user_id)),
  };
}

/** The users as the list answers them, with what extrasOf read for them. */
function adminUsersOf(
  users: UserFields[],
  extras: Awaited<ReturnType<typeof extrasOf>>,
  now: Date,
): AdminUser[] {
  return users.map((u) => {
    const mine = extras.roles.filter((r) => r.user_id === u.id);
    const twoFactor: AdminUser['twoFactor'] = verifiedMethods(u);
    if (extras.withPasskey.has(u.id)) twoFactor.push('Passkey');
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
      isLocked: u.locked_until !== null && u.locked_until > now.toISOString(),
      lastSignInAt: extras.lastSignIns.get(u.id) ?? null,
      twoFactor,
    };
  });
}

/** A page of users sorted by id, filtered by username prefix (case-insensitive), each with their roles, lock, last
 * sign-in and verified second factors. */
export async function pageOfUsers(
  store: AppStore,
  query: { page: number; pageSize: number; username?: string | undefined },
  now: Date,
): Promise<{ results: AdminUser[]; count: number }> {
  const username = query.username;
  const base = username
    ? store.db.selectFrom('users').where(startsWithIgnoringCase('users.username', username))
    : store.db.selectFrom('users');
  const [users, total] = await Promise.all([
    base
      .select([...userColumns])
      .orderBy('id')
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst(),
  ]);
  const extras = await extrasOf(
    store.db,
    users.map((u) => u.id),
  );
  return { count: Number(total?.n ?? 0), results: adminUsersOf(users, extras, now) };
}

/** One user as their administration page shows them, or a 404. */
export async function userDetail(db: Db, userId: number, now: Date): Promise<AdminUserDetail> {
  const user = await db
    .selectFrom('users')
    .select([...userColumns])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) throw new ApiError(404, userMessages.notFound);
  const at = now.toISOString();
  const [extras, recoveryCodesLeft, passkeys, sessions] = await Promise.all([
    extrasOf(db, [userId]),
    countRecoveryCodes(db, userId),
    db
      .selectFrom('passkeys')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirst(),
    db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', at)
      .where('absolute_expires_at', '>', at)
      .executeTakeFirst(),
  ]);
  const [listed] = adminUsersOf([user], extras, now);
  if (!listed) throw new ApiError(404, userMessages.notFound);
  return {
    ...listed,
    preferred2fa: user.preferred_2fa,
    recoveryCodesLeft,
    passkeys: Number(passkeys?.n ?? 0),
    activeSessions: Number(sessions?.n ?? 0),
    failedChecks: user.failed_logins,
  };
}

/**
 * Locking an account, like deleting it, ends every session of it at once (docs/decisions/0013-lockout-and-sessions.md).
 * Called in the transaction that writes `locked_until`, so the sessions end exactly when the lock lands; a sign-in
 * finishing at that moment checks the lock after its session exists (account/session-service.ts), so none slips by.
 */
export async function endSessionsIfLocked(
  db: Db,
  userId: number,
  lockedUntil: unknown,
  caller: { userId: number | null; address: string | null },
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
