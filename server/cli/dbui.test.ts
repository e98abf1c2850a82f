import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreSignIn } from '#common/contract/account.ts';
import { accountApiMessages as am, accountMessages as m } from '#common/messages.ts';
import { verifyPassword } from '#server/crypto/password-hash.ts';
import { ADMINISTRATOR_ROLE_ID } from '#server/store/roles.ts';
import { findUserByUsername } from '#server/store/users.ts';
import { AccountClient } from '#server/test/account-client.ts';
import { hasScript, runDbui, runDbuiAtTerminal, type DbuiRun } from '#server/test/dbui-command.ts';
import { TEST_PASSWORD, buildUser } from '#server/test/factories.ts';
import { tempDir } from '#server/test/temp-dir.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';

/*
 * Every `dbui` command (decision 0057) as an operator runs it: the built bundle as a child process, in a folder of
 * its own, on an SQLite app store the test also opens in-process (a real app on the same data folder) to see what
 * the command changed and to sign in afterwards. A refused command exits non-zero, says what to fix and changes
 * nothing.
 */

const NEW_PASSWORD = 'Fresh#Pass42';

describe('dbui', () => {
  const dir = tempDir('dbui-cli-');
  const dataDir = path.join(dir.path, 'data');
  const env = { DATA_DIR: dataDir };
  const dbui = (args: string[], options: { input?: string; env?: Record<string, string> } = {}) =>
    runDbui(args, { cwd: dir.path, env: { ...env, ...options.env }, input: options.input });
  let t: TestApp;

  /** The app store's audit entries of an action, newest last, with their detail parsed. */
  const auditOf = async (action: string) =>
    (
      await t.store.db
        .selectFrom('audit_log')
        .select(['user_id', 'target', 'detail'])
        .where('action', '=', action)
        .orderBy('id')
        .execute()
    ).map((entry) => ({ ...entry, detail: JSON.parse(entry.detail ?? 'null') as Record<string, unknown> }));

  const refused = (run: DbuiRun, code: number, message: string | RegExp) => {
    expect(run.code, run.stderr).toBe(code);
    expect(run.stderr.split('\n')[0]).toMatch(typeof message === 'string' ? `dbui: ${message}` : message);
  };

  async function signInStep(username: string, password: string) {
    const browser = new AccountClient(t);
    const answer = await browser.post<PreSignIn>('/api/account/login', {
      username,
      password,
      token: await browser.humanCheck(),
    });
    return { browser, answer };
  }

  afterAll(async () => {
    await t?.close();
    dir.remove();
  });

  describe('before there is an app store', () => {
    it('lists its commands, and refuses an unknown one, an unknown option and a missing argument with exit 2', async () => {
      const help = await dbui(['help']);
      expect(help.code).toBe(0);
      for (const command of ['admin create', 'admin reset-password USER', 'admin reset-2fa USER']) {
        expect(help.stdout).toContain(`dbui ${command}`);
      }
      for (const command of ['user unlock USER', 'backup FILE', 'migrate', 'config check']) {
        expect(help.stdout).toContain(`dbui ${command}`);
      }
      expect((await dbui([])).code).toBe(2);
      refused(await dbui(['admin', 'delete']), 2, 'there is no command "admin delete".');
      refused(await dbui(['user', 'unlock']), 2, 'missing USER.');
      refused(await dbui(['user', 'unlock', 'a', 'b']), 2, 'unexpected "b".');
      refused(await dbui(['migrate', '--force']), 2, /^dbui: Unknown option '--force'/);
      expect((await dbui(['backup', '--help'])).stdout).toMatch(/^usage: dbui backup FILE\n/);
    });

    it('refuses to work on an app store that does not exist, and creates none', async () => {
      const run = await dbui(
        ['admin', 'create', '--username', 'ann', '--email', 'ann@example.com', '--password-stdin'],
        {
          input: `${NEW_PASSWORD}\n`,
        },
      );
      refused(run, 1, `There is no app store at ${path.join(dataDir, 'app.db')} yet: run dbui migrate`);
      expect(fs.existsSync(path.join(dataDir, 'app.db'))).toBe(false);
    });

    it("migrate brings a new app store to this version's migrations, then has nothing to do", async () => {
      const first = await dbui(['migrate']);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toMatch(/^Applied \d+ migrations to the app store \(.+app\.db\): 0001-initial, /);
      const again = await dbui(['migrate']);
      expect(again.stdout).toBe(`The app store (${path.join(dataDir, 'app.db')}) is up to date.\n`);
      t = await buildTestApp({ env });
    });
  });

  describe('admin create', () => {
    it('refuses missing or malformed arguments without a terminal, and creates nobody', async () => {
      refused(
        await dbui(['admin', 'create', '--username', 'ann']),
        2,
        'Missing --email, a password (--password-stdin or --password-file): give them, or run dbui admin create at a terminal to be asked.',
      );
      const args = ['admin', 'create', '--username', 'ann', '--email', 'ann@example.com', '--password-stdin'];
      refused(await dbui(args, { input: 'short\n' }), 2, `password: ${m.passwordMin}`);
      refused(await dbui(args, { input: 'Password1!\n' }), 2, `password: ${am.passwordTooCommon}`);
      refused(
        await dbui(
          ['admin', 'create', '--username', 'ann b', '--email', 'ann@example.com', '--password-stdin'],
          {
            input: `${NEW_PASSWORD}\n`,
          },
        ),
        2,
        `username: ${m.invalidCharacters}`,
      );
      refused(
        await dbui([...args.slice(0, -1), '--password-stdin', '--password-file', 'x'], { input: 'x' }),
        2,
        'Give the password one way: --password-stdin or --password-file, not both.',
      );
      expect(await findUserByUsername(t.store.db, 'ann')).toBeUndefined();
    });

    it('creates an administrator from options, who signs in with that password; audited', async () => {
      const run = await dbui(
        ['admin', 'create', '--username', 'ann', '--email', 'ann@example.com', '--password-stdin'],
        { input: `${NEW_PASSWORD}\n` },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^Created the administrator ann \(user \d+\)\./);
      const ann = await findUserByUsername(t.store.db, 'ann');
      expect(ann?.email_verified_at).not.toBeNull();
      const roles = await t.store.db
        .selectFrom('user_roles')
        .select('role_id')
        .where('user_id', '=', ann!.id)
        .execute();
      expect(roles.map((r) => r.role_id)).toEqual([ADMINISTRATOR_ROLE_ID]);
      expect((await signInStep('ann', NEW_PASSWORD)).answer.status).toBe(200);
      const [entry] = await auditOf('setup.admin-from-command-line');
      expect(entry?.target).toBe(`user:${ann!.id}`);
      expect(entry?.detail.via).toMatch(/^dbui command line, .+@.+$/);

      // The same name again (any case) is refused by the service's own rule.
      const password = path.join(dir.path, 'password.txt');
      fs.writeFileSync(password, `${NEW_PASSWORD}\n`);
      refused(
        await dbui([
          'admin',
          'create',
          '--username',
          'ANN',
          '--email',
          'x@example.com',
          '--password-file',
          password,
        ]),
        1,
        am.usernameTaken,
      );
    });

    it.skipIf(!hasScript)(
      'asks at a terminal for what the options leave out, the password hidden',
      async () => {
        const run = await runDbuiAtTerminal(['admin', 'create', '--email', 'bea@example.com'], {
          cwd: dir.path,
          env,
          answers: [
            ['Username: ', 'bea'],
            ['Password: ', NEW_PASSWORD],
            ['The same password again: ', NEW_PASSWORD],
          ],
        });
        expect(run.code, run.output).toBe(0);
        expect(run.output).toContain('Created the administrator bea');
        expect(run.output).not.toContain(NEW_PASSWORD);
        expect((await signInStep('bea', NEW_PASSWORD)).answer.status).toBe(200);
      },
    );
  });

  describe('admin reset-password', () => {
    it('refuses an unknown user and a missing or weak password, changing nothing', async () => {
      refused(
        await dbui(['admin', 'reset-password', 'nobody', '--password-stdin'], { input: NEW_PASSWORD }),
        1,
        'There is no user named "nobody".',
      );
      const user = await buildUser(t);
      refused(
        await dbui(['admin', 'reset-password', user.username]),
        2,
        'Missing the new password: give --password-stdin or --password-file, or run this at a terminal to be asked.',
      );
      refused(
        await dbui(['admin', 'reset-password', user.username, '--password-stdin'], { input: 'weak' }),
        2,
        `password: ${m.passwordMin}`,
      );
      expect((await signInStep(user.username, TEST_PASSWORD)).answer.status).toBe(200);
    });

    it("sets the password and ends the user's sessions; --must-change makes them choose another", async () => {
      const user = await buildUser(t);
      const browser = new AccountClient(t);
      browser.token = user.token;
      expect((await browser.get('/api/account')).status).toBe(200);
      const run = await dbui(
        ['admin', 'reset-password', user.username, '--password-stdin', '--must-change'],
        {
          input: `${NEW_PASSWORD}\n`,
        },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe(
        `Set a new password for ${user.username}; 1 session ended.\nThey choose another password when they next sign in.\n`,
      );
      expect((await browser.get('/api/account')).status).toBe(401);
      const row = await findUserByUsername(t.store.db, user.username);
      expect(await verifyPassword(row!.password_hash!, NEW_PASSWORD)).toBe(true);
      expect(row!.password_expired).toBe(1);
      expect((await signInStep(user.username, TEST_PASSWORD)).answer.status).toBe(401);
      const entry = (await auditOf('admin.user.password-set')).at(-1);
      expect(entry).toMatchObject({ user_id: null, target: `user:${user.userId}` });
      expect(entry?.detail).toMatchObject({ mustChange: true, sessions: 1 });
    });
  });

  describe('admin reset-2fa', () => {
    it('refuses an unknown user', async () => {
      refused(await dbui(['admin', 'reset-2fa', 'nobody']), 1, 'There is no user named "nobody".');
    });

    it('removes the second factors and prints a link that signs the user in once after their password', async () => {
      const user = await buildUser(t);
      const now = new Date().toISOString();
      await t.store.db
        .updateTable('users')
        .set({ totp_secret: 'v1.lost-device', totp_verified_at: now, preferred_2fa: 'Totp' })
        .where('id', '=', user.userId)
        .execute();
      const run = await dbui(['admin', 'reset-2fa', user.username], {
        env: { PUBLIC_URL: 'https://dbui.example.com' },
      });
      expect(run.code, run.stderr).toBe(0);
      const link = /^ {2}(https:\/\/dbui\.example\.com\/account\/login\?\S+)$/m.exec(run.stdout)?.[1];
      expect(link, run.stdout).toBeDefined();
      expect(run.stdout).toContain('once, after their password, within 24 hours');
      const row = await findUserByUsername(t.store.db, user.username);
      expect([row?.totp_secret, row?.totp_verified_at, row?.preferred_2fa]).toEqual([null, null, null]);
      const [reset] = (await auditOf('admin.user.2fa-reset')).slice(-1);
      expect(reset).toMatchObject({ user_id: null, target: `user:${user.userId}` });
      expect((await auditOf('2fa.reset-link-issued')).at(-1)?.target).toBe(`user:${user.userId}`);

      // The person opens the link: the login page takes reset2fa, and after the password the token completes it.
      const url = new URL(link!);
      expect(url.searchParams.get('r')).toBe('/account');
      const token = url.searchParams.get('reset2fa')!;
      const { browser, answer } = await signInStep(user.username, TEST_PASSWORD);
      const signedIn = await browser.post('/api/account/login/link', { key: answer.data.key, link: token });
      expect(signedIn.status).toBe(200);
      expect((await auditOf('2fa.reset-link-used')).at(-1)?.target).toBe(`user:${user.userId}`);
      // Once.
      const again = await signInStep(user.username, TEST_PASSWORD);
      const second = await again.browser.post('/api/account/login/link', {
        key: again.answer.data.key,
        link: token,
      });
      expect([second.status, second.message]).toEqual([401, am.secondStepLinkInvalid]);
    });
  });

  describe('user unlock', () => {
    it('lifts a lock and clears the failed checks; audited', async () => {
      const user = await buildUser(t);
      const until = new Date(Date.now() + 3_600_000).toISOString();
      await t.store.db
        .updateTable('users')
        .set({ locked_until: until, failed_logins: 3 })
        .where('id', '=', user.userId)
        .execute();
      refused(await dbui(['user', 'unlock', 'nobody']), 1, 'There is no user named "nobody".');
      const run = await dbui(['user', 'unlock', user.username]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe(
        `Unlocked ${user.username} (locked until ${until}); their failed checks start again from 0.\n`,
      );
      const row = await findUserByUsername(t.store.db, user.username);
      expect([row?.locked_until, row?.failed_logins]).toEqual([null, 0]);
      expect((await auditOf('admin.user.unlocked')).at(-1)?.detail).toMatchObject({
        before: { lockedUntil: until, failedChecks: 3 },
        via: expect.stringMatching(/^dbui command line/),
      });
    });
  });

  describe('backup', () => {
    it('copies the app store with the online backup and secret.key beside it, never over a file', async () => {
      const file = path.join(dir.path, 'backup.db');
      const run = await dbui(['backup', file]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain(`Backed up the app store ${path.join(dataDir, 'app.db')} to ${file}`);
      expect(run.stdout).toContain(`Copied ${path.join(dataDir, 'secret.key')} to ${file}.secret.key`);
      const copy = new SQLite(file, { readonly: true });
      try {
        const ann = copy.prepare('select username from users where username = ?').get('ann');
        expect(ann).toEqual({ username: 'ann' });
        expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      } finally {
        copy.close();
      }
      expect(fs.readFileSync(`${file}.secret.key`)).toEqual(
        fs.readFileSync(path.join(dataDir, 'secret.key')),
      );
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.statSync(`${file}.secret.key`).mode & 0o777).toBe(0o600);

      const before = fs.readFileSync(file);
      refused(
        await dbui(['backup', file]),
        2,
        `${file} exists: a backup never overwrites a file; give a new name.`,
      );
      expect(fs.readFileSync(file)).toEqual(before);
      refused(
        await dbui(['backup', path.join(dir.path, 'none', 'b.db')]),
        2,
        /^dbui: The folder .+none does not exist\.$/,
      );
    });

    it('says where SECRET_KEY comes from when it is set instead of the key file', async () => {
      const file = path.join(dir.path, 'backup-with-key.db');
      const keyFile = path.join(dir.path, 'secret_key');
      fs.writeFileSync(keyFile, `${'k'.repeat(40)}\n`);
      // The app store's key fingerprint is the file key's: dbui does not open sealed secrets, so it needs no match.
      const run = await dbui(['backup', file], { env: { SECRET_KEY_FILE: keyFile } });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain(
        `SECRET_KEY comes from SECRET_KEY_FILE (${keyFile}): keep it with the backup`,
      );
      expect(fs.existsSync(`${file}.secret.key`)).toBe(false);
    });
  });

  describe('config check', () => {
    it('shows every variable with its source, reading .env and NAME_FILE, secrets masked', async () => {
      const folder = fs.mkdtempSync(path.join(dir.path, 'config-'));
      fs.writeFileSync(path.join(folder, '.env'), 'POOL_SIZE=7\nSMTP_URL_FILE=smtp_url\nLOG_LEVEL=debug\n');
      fs.writeFileSync(path.join(folder, 'smtp_url'), 'smtp://mailer:hunter22@mail.example.com:587\n');
      const run = await runDbui(['config', 'check'], {
        cwd: folder,
        env: { LOG_LEVEL: 'warn', PORT: '9000' },
      });
      expect(run.code, run.stderr).toBe(0);
      const lines = run.stdout.split('\n');
      const row = (name: string) => lines.find((line) => line.startsWith(`${name} `))?.split(/\s{2,}/);
      expect(lines[0]).toBe(`.env file: ${path.join(folder, '.env')}`);
      expect(row('PORT')).toEqual(['PORT', 'environment', '9000']);
      expect(row('LOG_LEVEL')).toEqual(['LOG_LEVEL', 'environment', 'warn']);
      expect(row('POOL_SIZE')).toEqual(['POOL_SIZE', path.join(folder, '.env'), '7']);
      expect(row('SMTP_URL')).toEqual([
        'SMTP_URL',
        `SMTP_URL_FILE (${path.join(folder, 'smtp_url')})`,
        'smtp://mailer:***@mail.example.com:587',
      ]);
      expect(row('HOST')).toEqual(['HOST', 'default', '127.0.0.1']);
      expect(run.stdout).not.toContain('hunter22');
      expect(run.stdout).toMatch(/\nThe configuration is valid\.\n$/);
    });

    it('fails with the server’s message on a malformed value, and on a secret given twice', async () => {
      const folder = fs.mkdtempSync(path.join(dir.path, 'config-'));
      fs.writeFileSync(path.join(folder, '.env'), 'POOL_SIZE=700\n');
      refused(
        await runDbui(['config', 'check'], { cwd: folder }),
        1,
        `POOL_SIZE: "700" must be a whole number from 1 to 200 (read from ${path.join(folder, '.env')}).`,
      );
      refused(
        await runDbui(['config', 'check'], {
          cwd: folder,
          env: { SMTP_URL: 'smtp://a@b', SMTP_URL_FILE: 'x' },
        }),
        1,
        'SMTP_URL_FILE: SMTP_URL is set too: give the secret one way, SMTP_URL or SMTP_URL_FILE.',
      );
      // Every other command refuses a malformed configuration the same way, before it touches the store.
      refused(
        await runDbui(['user', 'unlock', 'ann'], { cwd: folder, env }),
        1,
        `POOL_SIZE: "700" must be a whole number from 1 to 200 (read from ${path.join(folder, '.env')}).`,
      );
    });
  });

  describe('an app store behind this version', () => {
    beforeAll(async () => {
      // The newest migration taken out of the record: what a store of the previous version looks like to dbui.
      const store = new SQLite(path.join(dataDir, 'app.db'));
      try {
        store
          .prepare('delete from dbui_migrations where name = (select max(name) from dbui_migrations)')
          .run();
      } finally {
        store.close();
      }
    });

    it('is refused by the commands that change it, until dbui migrate', async () => {
      const run = await dbui(['user', 'unlock', 'ann']);
      refused(
        run,
        1,
        /^dbui: The app store needs 1 migration of this version \(.+\): run dbui migrate first\.$/,
      );
    });
  });
});
