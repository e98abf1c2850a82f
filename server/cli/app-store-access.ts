import fs from 'node:fs';
import type { Config } from '#server/config.ts';
import { redactUrl } from '#server/engines/engine-url.ts';
import { migrationState, openAppStore, type AppStore } from '#server/store/app-store.ts';
import { findUserByUsername, type UserRow } from '#server/store/users.ts';
import { CliError } from './cli-io.ts';

/**
 * Runs `work` on the configured app store and closes it. Unless `create` (dbui migrate), the store must exist and
 * be at this build's migrations: a command never creates an empty store, and never migrates one under servers of
 * an older version still running on it (dbui migrate, or a start of the new version, does that on purpose).
 */
export async function withAppStore<T>(
  config: Config,
  work: (store: AppStore) => Promise<T>,
  options: { create?: boolean } = {},
): Promise<T> {
  const target = config.appStore;
  if (!options.create && target.kind === 'sqlite' && !fs.existsSync(target.file)) {
    throw new CliError(
      `There is no app store at ${target.file} yet: run dbui migrate (or start DBUI once) first, or check DATA_DIR and APP_DB_URL.`,
    );
  }
  const store = openAppStore(target);
  try {
    try {
      await store.ping();
    } catch (error) {
      throw new CliError(
        `APP_DB_URL: the app store at ${redactUrl(config.appDbUrl)} cannot be used: ${reasonOf(error)}`,
      );
    }
    if (!options.create) await requireCurrentMigrations(store);
    return await work(store);
  } finally {
    await store.close().catch(() => undefined);
  }
}

async function requireCurrentMigrations(store: AppStore): Promise<void> {
  const { pending, unknown } = await migrationState(store);
  if (unknown.length > 0) {
    throw new CliError(
      `The app store was migrated by a newer DBUI (${unknown.join(', ')}): run that version's dbui.`,
    );
  }
  if (pending.length > 0) {
    throw new CliError(
      `The app store needs ${pending.length} migration${pending.length === 1 ? '' : 's'} of this version (${pending.join(', ')}): run dbui migrate first.`,
    );
  }
}

/** The account with this username (case-insensitively), or a refusal naming it. */
export async function requireUser(store: AppStore, username: string): Promise<UserRow> {
  const user = await findUserByUsername(store.db, username);
  if (!user) throw new CliError(`There is no user named "${username}".`);
  return user;
}

export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
