import type { FastifyRequest } from 'fastify';
import { type AccountRole, type User, type UserUpsertRequest } from '#common/contract/account.ts';
import { accountApiMessages as am } from '#common/messages.ts';
import { writeAudit } from '#server/store/audit.ts';
import { markAccessChanged, userIsAdmin } from '#server/store/roles.ts';
import {
  countAdministrators,
  deleteUser,
  findUserById,
  replaceUserImage,
  rolesOfUser,
  updateUser,
} from '#server/store/users.ts';
import { rebindXsrf } from '#server/plugins/csrf.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import type { SignedInAccount } from '#server/plugins/session.ts';
import type { AccountDeps } from './account-deps.ts';
import { profileImage } from './profile-image.ts';
import { setPreferred } from './two-factor-service.ts';
import { userView } from './user-view.ts';

/** GET /api/account: the person's own User. */
export async function ownUser(deps: AccountDeps, account: SignedInAccount): Promise<User> {
  const row = await findUserById(deps.store.db, account.userId);
  if (!row) throw new ApiError(401, am.accountGone);
  return userView(deps.store.db, row, account.passwordExpired);
}

/**
 * POST /api/account: changes the names, the preferred method and the image of the person's own account. Every
 * other field of the body (username, isAdmin, roles, email, phone, verification flags) is ignored: rights never
 * change here.
 */
export async function upsertOwnUser(
  deps: AccountDeps,
  request: FastifyRequest,
  account: SignedInAccount,
  body: UserUpsertRequest,
): Promise<User> {
  const detail = body.user_Details?.[0];
  const preferred = body.preferred2fa ?? detail?.preferred2fa ?? null;
  if (preferred) await setPreferred(deps, account, preferred, request.ip);
  const now = deps.now().toISOString();
  if (detail) {
    const names: { first_name?: string | null; last_name?: string | null } = {};
    if (detail.firstName !== undefined) names.first_name = detail.firstName || null;
    if (detail.lastName !== undefined) names.last_name = detail.lastName || null;
    if (Object.keys(names).length) await updateUser(deps.store.db, account.userId, names, now);
  }
  if (body.user_Images !== undefined) {
    const upload = body.user_Images[0];
    await replaceUserImage(deps.store.db, account.userId, upload ? await profileImage(upload) : null);
  }
  await writeAudit(deps.store.db, {
    userId: account.userId,
    action: 'account.updated',
    target: `user:${account.userId}`,
    address: request.ip,
  });
  return ownUser(deps, account);
}

/** GET /api/account/roles: the person's own roles with their links. */
export async function ownRoles(deps: AccountDeps, account: SignedInAccount): Promise<AccountRole[]> {
  const roles = await rolesOfUser(deps.store.db, account.userId);
  return roles.map((role) => ({
    Id: role.id,
    Name: role.name,
    Role_Links: role.links.map((l) => ({ Id: l.id, RoleId: l.role_id, Link: l.link })),
  }));
}

/**
 * DELETE /api/account/delete (after a recent proof): deletes the account and everything that belongs to it (roles,
 * image, sessions, codes); its sessions end with it. The last administrator cannot delete themself.
 */
export async function deleteOwnAccount(
  deps: AccountDeps,
  request: FastifyRequest,
  account: SignedInAccount,
): Promise<void> {
  await deps.store.db.transaction().execute(async (trx) => {
    if ((await userIsAdmin(trx, account.userId)) && (await countAdministrators(trx)) <= 1) {
      throw new ApiError(409, am.lastAdministrator);
    }
    await deleteUser(trx, account.userId);
    // Its Id may be given to a later account (SQLite): cached rights must not outlive it (0034).
    await markAccessChanged(trx);
    await writeAudit(trx, {
      userId: account.userId,
      action: 'account.deleted',
      target: `user:${account.userId}`,
      detail: { username: account.username },
      address: request.ip,
    });
  });
  rebindXsrf(request, null);
}
