import type { SignupRequest } from '#common/contract/account.ts';
import { accountApiMessages as am, accountMessages as m } from '#common/messages.ts';
import { writeAudit } from '#server/store/audit.ts';
import { USER_ROLE_ID } from '#server/store/roles.ts';
import {
  addUserRole,
  findUserById,
  findUserByUsername,
  insertUser,
  updateUser,
} from '#server/store/users.ts';
import { hashPassword } from '#server/crypto/password-hash.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import type { AccountDeps } from './account-deps.ts';
import { requireHumanCheck } from './human-check.ts';
import { EMAIL_ONLY, beginAttempt, encodePreSignIn } from './login-service.ts';
import { requireUncommonPassword } from './password-service.ts';

/**
 * POST /api/account/signup: creates the account with the built-in User role and an unconfirmed email, sends an
 * email code and answers `pu`; verifying the code confirms the address and signs in.
 */
export async function signup(deps: AccountDeps, body: SignupRequest, address: string): Promise<string> {
  await requireHumanCheck(deps, body.token);
  requireUncommonPassword(body.password);
  const username = body.user.username;
  if (await findUserByUsername(deps.store.db, username)) throw new ApiError(409, am.usernameTaken);
  const detail = body.user.user_Details[0];
  if (!detail) throw new ApiError(400, m.emailRequired);
  const passwordHash = await hashPassword(body.password);
  const now = deps.now().toISOString();
  let userId: number;
  try {
    userId = await deps.store.db.transaction().execute(async (trx) => {
      const id = await insertUser(
        trx,
        { username, email: detail.email, passwordHash, isAdmin: false, emailVerified: false },
        now,
      );
      await updateUser(
        trx,
        id,
        { first_name: detail.firstName || null, last_name: detail.lastName || null },
        now,
      );
      await addUserRole(trx, id, USER_ROLE_ID);
      await writeAudit(trx, { userId: id, action: 'account.created', target: `user:${id}`, address });
      return id;
    });
  } catch (error) {
    // Two signups for one name at the same moment: the unique constraint lets one through.
    if (await findUserByUsername(deps.store.db, username)) throw new ApiError(409, am.usernameTaken);
    throw error;
  }
  const user = await findUserById(deps.store.db, userId);
  if (!user) throw new ApiError(500, am.accountGone);
  return encodePreSignIn(
    await beginAttempt(deps, user, 'signup', EMAIL_ONLY, address, { background: false }),
  );
}
