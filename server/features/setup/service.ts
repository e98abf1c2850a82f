import type { FastifyBaseLogger } from 'fastify';
import { sql, type Transaction } from 'kysely';
import type { SetupRequest } from '#common/contract/setup.ts';
import type { AdminSetting } from '#server/config.ts';
import type { AppStore } from '#server/store/app-store.ts';
import type { AppDatabase } from '#server/store/schema.ts';
import { writeAudit } from '#server/store/audit.ts';
import { consumeCode, replaceCode } from '#server/store/one-time-codes.ts';
import { ADMINISTRATOR_ROLE_ID } from '#server/store/roles.ts';
import { addUserRole, countUsers, findUserByUsername, insertUser } from '#server/store/users.ts';
import { hashPassword } from '#server/crypto/password-hash.ts';
import type { SecretBox } from '#server/crypto/secret-box.ts';
import { randomToken, sha256Hex } from '#server/crypto/tokens.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import { accountApiMessages as am } from '#common/messages.ts';
import { requireUncommonPassword } from '#server/features/account/password-service.ts';

const SETUP_PURPOSE = 'setup';
const SETUP_LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** The setup link's token, sealed with the secret box, so every instance prints the same link. */
const SETUP_TOKEN_SETTING = 'setup-link-token';
/** pg_advisory_xact_lock's key for the first administrator's start-up work (any constant of our own). */
const FIRST_ADMINISTRATOR_LOCK = 0x64627569_0001n;

/**
 * On an empty app store: create the first administrator from ADMIN_* when given, or else answer the one-time setup
 * token (valid 24 hours) so main.ts can print its link (setupLink). main.ts runs this before it listens, so a
 * server that answers /api/health already has its administrator. Instances starting together do this one at a
 * time (a transaction lock on PostgreSQL; SQLite's writes are serial): ADMIN_* makes one administrator, and every
 * instance prints the same link while it is valid and unused, whoever issued it; a start after it expired issues a
 * new one.
 */
export async function prepareFirstAdministrator(
  store: AppStore,
  admin: AdminSetting | null,
  log: FastifyBaseLogger,
  box: SecretBox,
): Promise<{ setupToken: string | null }> {
  if ((await countUsers(store.db)) > 0) return { setupToken: null };
  // Hashed before the lock: argon2 is slow, and the lock is held by one instance at a time.
  const passwordHash = admin ? await hashPassword(admin.password) : null;
  return store.db.transaction().execute(async (trx) => {
    if (store.kind === 'postgres')
      await sql`select pg_advisory_xact_lock(${sql.lit(FIRST_ADMINISTRATOR_LOCK)})`.execute(trx);
    if ((await countUsers(trx)) > 0) return { setupToken: null };
    if (admin && passwordHash) {
      await insertAdministrator(trx, { ...admin, passwordHash }, 'setup.admin-from-environment');
      log.info({ username: admin.username }, 'created the first administrator from ADMIN_USERNAME');
      return { setupToken: null };
    }
    const now = new Date();
    return { setupToken: (await validSetupToken(trx, box, now)) ?? (await issueSetupToken(trx, box, now)) };
  });
}

/** The web app's setup page for `token` on the server at `baseUrl`: the link an operator opens. */
export function setupLink(baseUrl: string, token: string): string {
  return `${baseUrl}/setup?token=${token}`;
}

/** The setup token already issued, when it is still valid and unused (another instance's, or this one's before a
 * restart); null when there is none, it cannot be opened with this key, or it was used or expired. */
async function validSetupToken(
  trx: Transaction<AppDatabase>,
  box: SecretBox,
  now: Date,
): Promise<string | null> {
  const stored = await trx
    .selectFrom('settings')
    .select('value')
    .where('name', '=', SETUP_TOKEN_SETTING)
    .executeTakeFirst();
  if (!stored) return null;
  let token: string;
  try {
    token = box.open(stored.value);
  } catch {
    return null;
  }
  const code = await trx
    .selectFrom('one_time_codes')
    .select('id')
    .where('purpose', '=', SETUP_PURPOSE)
    .where('code_hash', '=', sha256Hex(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return code ? token : null;
}

/** A new setup token: any earlier setup code is retired, the new one's hash stored, the token kept sealed. */
async function issueSetupToken(trx: Transaction<AppDatabase>, box: SecretBox, now: Date): Promise<string> {
  const token = randomToken();
  await replaceCode(
    trx,
    {
      userId: null,
      purpose: SETUP_PURPOSE,
      codeHash: sha256Hex(token),
      expiresAt: new Date(now.getTime() + SETUP_LINK_LIFETIME_MS).toISOString(),
    },
    now.toISOString(),
  );
  const sealed = box.seal(token);
  await trx
    .insertInto('settings')
    .values({ name: SETUP_TOKEN_SETTING, value: sealed })
    .onConflict((c) => c.column('name').doUpdateSet({ value: sealed }))
    .execute();
  return token;
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
    await trx.deleteFrom('settings').where('name', '=', SETUP_TOKEN_SETTING).execute();
  });
}

/**
 * An administrator an operator makes with `dbui admin create`, the first or another: the password must not be a
 * common one (the spec's rules are the caller's schema), the username must be free (case-insensitively); the email
 * counts as confirmed, as the setup link's does. Audited `setup.admin-from-command-line` with how it came. Answers
 * the new account's id.
 */
export async function createAdministrator(
  store: AppStore,
  admin: { username: string; email: string; password: string },
  via: string,
): Promise<number> {
  requireUncommonPassword(admin.password);
  if (await findUserByUsername(store.db, admin.username)) throw new ApiError(409, am.usernameTaken);
  const passwordHash = await hashPassword(admin.password);
  try {
    return await store.db
      .transaction()
      .execute((trx) =>
        insertAdministrator(trx, { ...admin, passwordHash }, 'setup.admin-from-command-line', { via }),
      );
  } catch (error) {
    // Taken meanwhile: the unique constraint let the other one through.
    if (await findUserByUsername(store.db, admin.username)) throw new ApiError(409, am.usernameTaken);
    throw error;
  }
}

async function insertAdministrator(
  trx: Parameters<typeof countUsers>[0],
  admin: { username: string; email: string; passwordHash: string },
  action: string,
  detail: Record<string, unknown> | null = null,
): Promise<number> {
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
  await writeAudit(trx, { userId, action, target: `user:${userId}`, detail });
  return userId;
}
