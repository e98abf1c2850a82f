import type { FastifyRequest } from 'fastify';
import {
  PROFILE_IMAGE_MAX_BYTES,
  profileImageTypes,
  type AccountRole,
  type User,
  type UserUpsertRequest,
} from '#common/contract/account.ts';
import { accountApiMessages as am } from '#common/messages.ts';
import { writeAudit } from '#server/store/audit.ts';
import { userIsAdmin } from '#server/store/roles.ts';
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
    const image = body.user_Images[0] ?? null;
    if (image) checkImage(image);
    await replaceUserImage(deps.store.db, account.userId, image);
  }
  await writeAudit(deps.store.db, {
    userId: account.userId,
    action: 'account.updated',
    target: `user:${account.userId}`,
    address: request.ip,
  });
  return ownUser(deps, account);
}

const signatures: Record<(typeof profileImageTypes)[number], (bytes: Buffer) => boolean> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => b.subarray(0, 4).toString('latin1') === 'GIF8',
  'image/webp': (b) =>
    b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

/** A profile image must be what its type says (checked by its first bytes) and at most 1 MB. */
function checkImage(image: { image: string; fileType: string }): void {
  const type = profileImageTypes.find((t) => t === image.fileType.toLowerCase());
  if (!type || !/^[A-Za-z0-9+/]*={0,2}$/.test(image.image)) throw new ApiError(400, am.imageType);
  const bytes = Buffer.from(image.image, 'base64');
  if (bytes.length > PROFILE_IMAGE_MAX_BYTES) {
    throw new ApiError(400, am.imageTooLarge(PROFILE_IMAGE_MAX_BYTES / 1024 / 1024));
  }
  if (!signatures[type](bytes)) throw new ApiError(400, am.imageType);
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
