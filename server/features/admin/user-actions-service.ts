import { sql, type Kysely, type Transaction } from 'kysely';
import { userMessages, type AdminUserDetail, type LockInput } from '#common/contract/admin.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { writeAudit } from '#server/store/audit.ts';
import { ADMINISTRATOR_ROLE_ID, findRole } from '#server/store/roles.ts';
import type { AppDatabase } from '#server/store/schema.ts';
import { revokeSessionsOfUser } from '#server/store/sessions.ts';
import { updateUser } from '#server/store/users.ts';
import { hashPassword } from '#server/crypto/password-hash.ts';
import { requireUncommonPassword } from '#server/features/account/password-service.ts';
import { checkRoleRules, roleOf } from './roles-service.ts';
import { endSessionsIfLocked, userDetail } from './users-service.ts';

/*
 * What an administrator does to one account (issue 14; docs/decisions/0028-admin-user-actions.md): set its roles,
 * lock and unlock it, reset its second factors, end its sessions. Each runs in one transaction with its audit entry
 * (`admin.user.*`, target `user:{id}`). Rights are read from the store on every request (plugins/session.ts), so a
 * change counts from the user's next call; ending sessions revokes them in the store, so the next call is refused.
 */

/** A lock "until unlocked": the latest instant ISO text holds, far past any session or lockout. */
export const LOCKED_UNTIL_UNLOCKED = '9999-12-31T23:59:59.999Z';

/** Who acts, from where, and when (the app's clock). */
export interface ActingAdministrator {
  /** The administrator's account; null for an operator at the `dbui` command line, who has none. */
  userId: number | null;
  address: string | null;
  now: Date;
  /** How an action without an account came (the command line, its host and system user): kept in the entry's
   * detail, so the audit trail tells it from an administrator's. */
  via?: string;
}

/** The audit detail that says how an action came, when it came without an account. */
const viaOf = (actor: ActingAdministrator) => (actor.via ? { via: actor.via } : {});

type Db = Kysely<AppDatabase> | Transaction<AppDatabase>;

/** The account must exist (404 otherwise). */
async function requireUser(db: Db, userId: number): Promise<void> {
  const found = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
  if (!found) throw new ApiError(404, userMessages.notFound);
}

/** Locking and ending sessions are for other accounts: one's own has My Account and Logout. */
function refuseOwnAccount(actor: ActingAdministrator, userId: number): void {
  if (actor.userId === userId) throw new ApiError(400, userMessages.notYourself);
}

/**
 * Sets the user's roles to exactly `roleIds` (an Id given twice counts once) in one transaction. Unknown role Ids
 * are refused by name; taking the Administrator role from its last holder is refused by the role rules
 * (roles-service checkRoleRules), checked with the Administrator role's row written first, so two such changes on
 * PostgreSQL wait for each other instead of both seeing one other administrator left.
 */
export async function setUserRoles(
  store: AppStore,
  userId: number,
  roleIds: number[],
  actor: ActingAdministrator,
): Promise<AdminUserDetail> {
  const wanted = [...new Set(roleIds)].sort((a, b) => a - b);
  return store.db.transaction().execute(async (trx) => {
    await requireUser(trx, userId);
    if (wanted.length) {
      const known = new Set(
        (await trx.selectFrom('roles').select('id').where('id', 'in', wanted).execute()).map((r) => r.id),
      );
      const unknown = wanted.find((id) => !known.has(id));
      if (unknown !== undefined) throw new ApiError(400, userMessages.unknownRole(unknown));
    }
    const before = (
      await trx
        .selectFrom('user_roles')
        .select('role_id')
        .where('user_id', '=', userId)
        .orderBy('role_id')
        .execute()
    ).map((r) => r.role_id);
    const removed = before.filter((id) => !wanted.includes(id));
    const added = wanted.filter((id) => !before.includes(id));
    if (removed.includes(ADMINISTRATOR_ROLE_ID)) {
      // A write on the role's row: on PostgreSQL a row lock held to the commit (SQLite has one writer anyway).
      await trx
        .updateTable('roles')
        .set({ name: sql<string>`name` })
        .where('id', '=', ADMINISTRATOR_ROLE_ID)
        .execute();
      const administrator = await findRole(trx, ADMINISTRATOR_ROLE_ID);
      if (administrator) {
        const role = roleOf(administrator);
        checkRoleRules({ ...role, User_Roles: role.User_Roles.filter((u) => u.UserId !== userId) });
      }
    }
    if (removed.length) {
      await trx
        .deleteFrom('user_roles')
        .where('user_id', '=', userId)
        .where('role_id', 'in', removed)
        .execute();
    }
    if (added.length) {
      await trx
        .insertInto('user_roles')
        .values(added.map((roleId) => ({ user_id: userId, role_id: roleId })))
        .execute();
    }
    await writeAudit(trx, {
      userId: actor.userId,
      action: 'admin.user.roles',
      target: `user:${userId}`,
      detail: { before, after: wanted },
      address: actor.address,
    });
    return userDetail(trx, userId, actor.now);
  });
}

/**
 * Locks another account until `until` (absent or null: LOCKED_UNTIL_UNLOCKED, until an administrator unlocks),
 * ending every session of it in the same transaction (users-service endSessionsIfLocked, which audits that too).
 */
export async function lockUser(
  store: AppStore,
  userId: number,
  input: LockInput,
  actor: ActingAdministrator,
): Promise<AdminUserDetail> {
  refuseOwnAccount(actor, userId);
  const until = input.until ? new Date(input.until).toISOString() : LOCKED_UNTIL_UNLOCKED;
  if (until <= actor.now.toISOString()) throw new ApiError(400, userMessages.lockInPast);
  return store.db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('users')
      .select('locked_until')
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!before) throw new ApiError(404, userMessages.notFound);
    const now = actor.now.toISOString();
    await trx
      .updateTable('users')
      .set({ locked_until: until, updated_at: now })
      .where('id', '=', userId)
      .execute();
    await endSessionsIfLocked(trx, userId, until, actor, actor.now);
    await writeAudit(trx, {
      userId: actor.userId,
      action: 'admin.user.locked',
      target: `user:${userId}`,
      detail: { before: before.locked_until, until },
      address: actor.address,
    });
    return userDetail(trx, userId, actor.now);
  });
}

/**
 * Unlocks an account: no lock, and the count of failed checks starts afresh. Checks under way keep their slots (a
 * password being checked right now still counts; slots nobody gave back are forgotten after a minute anyway).
 */
export async function unlockUser(
  store: AppStore,
  userId: number,
  actor: ActingAdministrator,
): Promise<AdminUserDetail> {
  return store.db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('users')
      .select(['locked_until', 'failed_logins'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!before) throw new ApiError(404, userMessages.notFound);
    await trx
      .updateTable('users')
      .set({ locked_until: null, failed_logins: 0, updated_at: actor.now.toISOString() })
      .where('id', '=', userId)
      .execute();
    await writeAudit(trx, {
      userId: actor.userId,
      action: 'admin.user.unlocked',
      target: `user:${userId}`,
      detail: {
        before: { lockedUntil: before.locked_until, failedChecks: before.failed_logins },
        ...viaOf(actor),
      },
      address: actor.address,
    });
    return userDetail(trx, userId, actor.now);
  });
}

/**
 * Resets the second factors: the authenticator app (secret, confirmation, one waiting to be confirmed, last step),
 * the phone's verification (the number stays, so the user can verify it again without typing it), every passkey
 * and recovery code, and the preferred method (back to the default: the emailed code). Sessions stay.
 */
export async function resetSecondFactor(
  store: AppStore,
  userId: number,
  actor: ActingAdministrator,
): Promise<AdminUserDetail> {
  return store.db.transaction().execute(async (trx) => {
    const before = await userDetail(trx, userId, actor.now);
    await trx
      .updateTable('users')
      .set({
        totp_secret: null,
        totp_verified_at: null,
        totp_pending_secret: null,
        totp_last_step: null,
        phone_verified_at: null,
        preferred_2fa: null,
        updated_at: actor.now.toISOString(),
      })
      .where('id', '=', userId)
      .execute();
    const passkeys = await trx.deleteFrom('passkeys').where('user_id', '=', userId).executeTakeFirst();
    const codes = await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).executeTakeFirst();
    await writeAudit(trx, {
      userId: actor.userId,
      action: 'admin.user.2fa-reset',
      target: `user:${userId}`,
      detail: {
        before: { twoFactor: before.twoFactor, preferred2fa: before.preferred2fa },
        passkeys: Number(passkeys.numDeletedRows),
        recoveryCodes: Number(codes.numDeletedRows),
        ...viaOf(actor),
      },
      address: actor.address,
    });
    return userDetail(trx, userId, actor.now);
  });
}

/** Ends every session of another account; answers how many ended and the account as it is after. */
export async function endUserSessions(
  store: AppStore,
  userId: number,
  actor: ActingAdministrator,
): Promise<{ ended: number; user: AdminUserDetail }> {
  refuseOwnAccount(actor, userId);
  return store.db.transaction().execute(async (trx) => {
    await requireUser(trx, userId);
    const ended = await revokeSessionsOfUser(trx, userId, null, actor.now.toISOString());
    await writeAudit(trx, {
      userId: actor.userId,
      action: 'admin.user.sessions-ended',
      target: `user:${userId}`,
      detail: { sessions: ended },
      address: actor.address,
    });
    return { ended, user: await userDetail(trx, userId, actor.now) };
  });
}

/**
 * Sets a new password for an account (`dbui admin reset-password`): checked by the spec's rules and the list of
 * common passwords, hashed, and every session of the account ended in the same transaction, so whoever held one
 * must sign in with the new password. With `mustChange` the person chooses another at their next sign-in.
 * Audited `admin.user.password-set`. Answers how many sessions ended.
 */
export async function setUserPassword(
  store: AppStore,
  userId: number,
  password: string,
  options: { mustChange: boolean },
  actor: ActingAdministrator,
): Promise<{ sessionsEnded: number }> {
  requireUncommonPassword(password);
  await requireUser(store.db, userId);
  const passwordHash = await hashPassword(password);
  const now = actor.now.toISOString();
  return store.db.transaction().execute(async (trx) => {
    await requireUser(trx, userId);
    await updateUser(
      trx,
      userId,
      { password_hash: passwordHash, password_changed_at: now, password_expired: options.mustChange ? 1 : 0 },
      now,
    );
    const sessionsEnded = await revokeSessionsOfUser(trx, userId, null, now);
    await writeAudit(trx, {
      userId: actor.userId,
      action: 'admin.user.password-set',
      target: `user:${userId}`,
      detail: { mustChange: options.mustChange, sessions: sessionsEnded, ...viaOf(actor) },
      address: actor.address,
    });
    return { sessionsEnded };
  });
}
