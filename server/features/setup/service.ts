import type { FastifyBaseLogger } from 'fastify';
import type { SetupRequest } from '#common/contract/setup.ts';
import type { AdminSetting } from '#server/config.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { writeAudit } from '#server/store/audit.ts';
import { consumeCode, replaceCode } from '#server/store/one-time-codes.ts';
import { ADMINISTRATOR_ROLE_ID } from '#server/store/roles.ts';
import { addUserRole, countUsers, insertUser } from '#server/store/users.ts';
import { hashPassword } from '#server/features/auth/password-hash.ts';
import { randomToken, sha256Hex } from '#server/features/auth/tokens.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';

const SETUP_PURPOSE = 'setup';
const SETUP_LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * On an empty app store: create the first administrator from ADMIN_* when given, or else issue a one-time setup
 * link (valid 24 hours, replaced at each start) and answer it so main.ts can print it.
 */
export async function prepareFirstAdministrator(
  store: AppStore,
  admin: AdminSetting | null,
  baseUrl: string,
  log: FastifyBaseLogger,
): Promise<{ setupLink: string | null }> {
  if ((await countUsers(store.db)) > 0) return { setupLink: null };
  if (admin) {
    await createAdministrator(store, admin, 'setup.admin-from-environment');
    log.info({ username: admin.username }, 'created the first administrator from ADMIN_USERNAME');
    return { setupLink: null };
  }
  const token = randomToken();
  const now = new Date();
  await replaceCode(
    store.db,
    {
      userId: null,
      purpose: SETUP_PURPOSE,
      codeHash: sha256Hex(token),
      expiresAt: new Date(now.getTime() + SETUP_LINK_LIFETIME_MS).toISOString(),
    },
    now.toISOString(),
  );
  return { setupLink: `${baseUrl}/setup?token=${token}` };
}

/** True while no account exists. */
export async function setupRequired(store: AppStore): Promise<boolean> {
  return (await countUsers(store.db)) === 0;
}

/** Creates the first administrator with a valid setup token; the token works once. */
export async function completeSetup(store: AppStore, request: SetupRequest): Promise<void> {
  const passwordHash = await hashPassword(request.password);
  await store.db.transaction().execute(async (trx) => {
    if ((await countUsers(trx)) > 0)
      throw new ApiError(409, 'The first administrator already exists: sign in instead.');
    const now = new Date().toISOString();
    if (!(await consumeCode(trx, SETUP_PURPOSE, sha256Hex(request.token), now))) {
      throw new ApiError(
        400,
        'This setup link is not valid or has expired: restart DBUI to print a new one.',
      );
    }
    await insertAdministrator(trx, { ...request, passwordHash }, 'setup.admin-from-link');
  });
}

async function createAdministrator(store: AppStore, admin: AdminSetting, action: string): Promise<void> {
  const passwordHash = await hashPassword(admin.password);
  await store.db.transaction().execute((trx) => insertAdministrator(trx, { ...admin, passwordHash }, action));
}

async function insertAdministrator(
  trx: Parameters<typeof countUsers>[0],
  admin: { username: string; email: string; passwordHash: string },
  action: string,
): Promise<void> {
  const userId = await insertUser(
    trx,
    {
      username: admin.username,
      email: admin.email,
      passwordHash: admin.passwordHash,
      isAdmin: true,
      emailVerified: true,
    },
    new Date().toISOString(),
  );
  await addUserRole(trx, userId, ADMINISTRATOR_ROLE_ID);
  await writeAudit(trx, { userId, action, target: `user:${userId}` });
}
