import fs from 'node:fs';
import path from 'node:path';
import { redactUrl } from '#server/engines/engine-url.ts';
import { describeSource } from '#server/config-sources.ts';
import { migrateAppStore, migrationState } from '#server/store/app-store.ts';
import { backupSqliteStore } from '#server/store/backup.ts';
import { withAppStore } from './app-store-access.ts';
import { CliError } from './cli-io.ts';
import type { Command } from './command.ts';

/*
 * The app store as a whole (decision 0057): `migrate` runs this version's migrations (a start does the same), and
 * `backup` copies what a restore needs: the app store and the key that opens the secrets sealed in it.
 */

export const migrate: Command = {
  name: 'migrate',
  usage: 'dbui migrate',
  summary: "bring the app store to this version's migrations, as a start does (migrations only move forward)",
  options: {},
  positionals: [],
  async run(_args, { io, configuration }) {
    const { config } = configuration();
    const where = config.appStore.kind === 'sqlite' ? config.appStore.file : redactUrl(config.appDbUrl);
    await withAppStore(
      config,
      async (store) => {
        const { pending, unknown } = await migrationState(store);
        if (unknown.length > 0) {
          throw new CliError(
            `The app store was migrated by a newer DBUI (${unknown.join(', ')}): migrations only move forward; run that version.`,
          );
        }
        if (pending.length === 0) {
          io.out(`The app store (${where}) is up to date.`);
          return;
        }
        const applied = (await migrateAppStore(store))
          .filter((result) => result.status === 'Success')
          .map((result) => result.migrationName);
        io.out(
          `Applied ${applied.length} migration${applied.length === 1 ? '' : 's'} to the app store (${where}): ${applied.join(', ')}.`,
        );
      },
      { create: true },
    );
  },
};

export const backup: Command = {
  name: 'backup',
  usage: 'dbui backup FILE',
  summary: 'copy the SQLite app store (online) and secret.key; for PostgreSQL, print the pg_dump line to run',
  options: {},
  positionals: ['FILE'],
  async run({ positionals }, { io, configuration, cwd }) {
    const file = path.resolve(cwd, positionals[0] ?? '');
    const keyCopy = `${file}.secret.key`;
    for (const target of [file, keyCopy]) {
      if (fs.existsSync(target))
        throw new CliError(`${target} exists: a backup never overwrites a file; give a new name.`, true);
    }
    const folder = path.dirname(file);
    if (!fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory())
      throw new CliError(`The folder ${folder} does not exist.`, true);
    const { config, sources } = configuration();

    if (config.appStore.kind === 'sqlite') {
      const store = config.appStore.file;
      if (!fs.existsSync(store)) throw new CliError(`There is no app store at ${store} to back up.`);
      const { pages } = await backupSqliteStore(store, file);
      fs.chmodSync(file, 0o600);
      io.out(
        `Backed up the app store ${store} to ${file} (${pages} pages, ${fs.statSync(file).size} bytes).`,
      );
    } else {
      // pg_dump is PostgreSQL's own tool; DBUI prints the line rather than run a binary of unknown version.
      const url = new URL(config.appDbUrl);
      url.password = '';
      io.out(
        'The app store is on PostgreSQL: back it up with pg_dump (its password from PGPASSWORD or ~/.pgpass):',
      );
      io.out('');
      io.out(`  pg_dump --format=custom --file=${shellQuote(file)} --dbname=${shellQuote(url.toString())}`);
      io.out('');
      io.out(`pg_restore --dbname=URL ${shellQuote(file)} restores it into an empty database.`);
    }

    const secretKey = sources.sources.get('SECRET_KEY');
    if (config.secretKey && secretKey) {
      io.out(
        `SECRET_KEY comes from ${describeSource(secretKey)}: keep it with the backup, which is no use without it.`,
      );
    } else {
      const keyFile = path.join(config.dataDir, 'secret.key');
      if (fs.existsSync(keyFile)) {
        fs.copyFileSync(keyFile, keyCopy, fs.constants.COPYFILE_EXCL);
        fs.chmodSync(keyCopy, 0o600);
        io.out(
          `Copied ${keyFile} to ${keyCopy}: keep the two together (it opens the secrets sealed in the store).`,
        );
      } else {
        io.err(`Note: there is no ${keyFile} yet: DBUI makes it at its first start.`);
      }
    }
    io.out(`Export files (${config.exportDir}) are not in the backup: keep that folder too if they matter.`);
  },
};

/** A word for a POSIX shell: as it is when it is plain, else in single quotes. */
function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
