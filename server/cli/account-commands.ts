import type { z } from 'zod';
import { emailField, passwordField, usernameField } from '#common/contract/account.ts';
import { accountApiMessages as am } from '#common/messages.ts';
import { isCommonPassword } from '#server/features/account/password-service.ts';
import {
  issueSecondStepLink,
  secondStepLinkOf,
  SECOND_STEP_LINK_LIFETIME_MS,
} from '#server/features/account/second-step-link.ts';
import {
  resetSecondFactor,
  setUserPassword,
  unlockUser,
  type ActingAdministrator,
} from '#server/features/admin/user-actions-service.ts';
import { createAdministrator } from '#server/features/setup/service.ts';
import type { UserRow } from '#server/store/users.ts';
import { requireUser, withAppStore } from './app-store-access.ts';
import { CliError, commandLineActor, readSecretFile, type CliIo } from './cli-io.ts';
import type { Command } from './command.ts';

/*
 * The account commands (decision 0057): each checks its arguments before it opens the app store, so a refused call
 * changes nothing, and each goes through the services the admin pages use, with the same rules and audit entries;
 * the entries have no author account and say `via` the command line, its system user and host.
 */

const passwordOptions = {
  'password-stdin': { type: 'boolean' },
  'password-file': { type: 'string' },
} as const;
const passwordUsage = '[--password-stdin | --password-file FILE]';

/** A field checked by the contract's schema (the web form's): its first message refuses it as a usage error. */
function checked<T extends z.ZodType>(field: string, schema: T, value: string): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success)
    throw new CliError(`${field}: ${result.error.issues[0]?.message ?? 'is not valid.'}`, true);
  return result.data;
}

/** The spec's password rules and the list of common passwords, as the sign-up form and the server check them. */
function checkedPassword(password: string): string {
  const valid = checked('password', passwordField, password);
  if (isCommonPassword(valid)) throw new CliError(`password: ${am.passwordTooCommon}`, true);
  return valid;
}

/**
 * The new password: from stdin (its first line), a file, or asked twice at the terminal; undefined when none of
 * them can give it (no option and no terminal).
 */
async function newPasswordOf(
  values: { 'password-stdin'?: boolean; 'password-file'?: string },
  io: CliIo,
): Promise<string | undefined> {
  if (values['password-stdin'] && values['password-file'] !== undefined)
    throw new CliError('Give the password one way: --password-stdin or --password-file, not both.', true);
  if (values['password-stdin']) {
    const text = (await io.readStdin()).replace(/[\r\n]+$/, '');
    if (/[\r\n]/.test(text)) throw new CliError('--password-stdin: give the password on one line.', true);
    return text;
  }
  if (values['password-file'] !== undefined)
    return readSecretFile('--password-file', values['password-file']);
  if (!io.interactive) return undefined;
  const first = checkedPassword(await io.ask('Password: ', { hidden: true }));
  const again = await io.ask('The same password again: ', { hidden: true });
  if (again !== first) throw new CliError('The two passwords differ: nothing was changed.', true);
  return first;
}

function actorNow(): ActingAdministrator {
  return { userId: null, address: null, now: new Date(), via: commandLineActor() };
}

/** A hint when the account cannot sign in for another reason than what the command fixed. */
function lockHint(io: CliIo, user: UserRow, now: Date): void {
  if (user.locked_until !== null && user.locked_until > now.toISOString()) {
    io.err(
      `Note: ${user.username} is locked until ${user.locked_until}: dbui user unlock ${user.username} lets them sign in.`,
    );
  }
}

export const adminCreate: Command = {
  name: 'admin create',
  usage: `dbui admin create [--username NAME] [--email ADDRESS] ${passwordUsage}`,
  summary: 'create an administrator; asks at a terminal for what the options do not give',
  options: { username: { type: 'string' }, email: { type: 'string' }, ...passwordOptions },
  positionals: [],
  async run({ values }, { io, configuration }) {
    const given = values as {
      username?: string;
      email?: string;
      'password-stdin'?: boolean;
      'password-file'?: string;
    };
    const missing = [
      given.username === undefined ? '--username' : null,
      given.email === undefined ? '--email' : null,
      given['password-stdin'] || given['password-file'] !== undefined
        ? null
        : 'a password (--password-stdin or --password-file)',
    ].filter((part) => part !== null);
    if (missing.length > 0 && !io.interactive) {
      throw new CliError(
        `Missing ${missing.join(', ')}: give them, or run dbui admin create at a terminal to be asked.`,
        true,
      );
    }
    const username = checked('username', usernameField, given.username ?? (await io.ask('Username: ')));
    const email = checked('email', emailField, given.email ?? (await io.ask('Email: ')));
    const password = checkedPassword((await newPasswordOf(given, io)) ?? '');
    const { config } = configuration();
    const userId = await withAppStore(config, (store) =>
      createAdministrator(store, { username, email, password }, commandLineActor()),
    );
    io.out(
      `Created the administrator ${username} (user ${userId}). They sign in at ${config.publicUrl}/account/login with`,
    );
    io.out(`their password and a code sent to ${email}.`);
  },
};

export const adminResetPassword: Command = {
  name: 'admin reset-password',
  usage: `dbui admin reset-password USER ${passwordUsage} [--must-change]`,
  summary:
    "set a user's password and end their sessions; --must-change: they choose another at the next sign-in",
  options: { ...passwordOptions, 'must-change': { type: 'boolean' } },
  positionals: ['USER'],
  async run({ values, positionals }, { io, configuration }) {
    const [username = ''] = positionals;
    const given = values as { 'password-stdin'?: boolean; 'password-file'?: string; 'must-change'?: boolean };
    const password = await newPasswordOf(given, io);
    if (password === undefined) {
      throw new CliError(
        'Missing the new password: give --password-stdin or --password-file, or run this at a terminal to be asked.',
        true,
      );
    }
    const valid = checkedPassword(password);
    const { config } = configuration();
    await withAppStore(config, async (store) => {
      const user = await requireUser(store, username);
      const actor = actorNow();
      const { sessionsEnded } = await setUserPassword(
        store,
        user.id,
        valid,
        { mustChange: Boolean(given['must-change']) },
        actor,
      );
      io.out(
        `Set a new password for ${user.username}; ${sessionsEnded} session${sessionsEnded === 1 ? '' : 's'} ended.`,
      );
      if (given['must-change']) io.out('They choose another password when they next sign in.');
      lockHint(io, user, actor.now);
    });
  },
};

export const adminResetSecondFactor: Command = {
  name: 'admin reset-2fa',
  usage: 'dbui admin reset-2fa USER',
  summary: "remove a user's second factors and print a one-time link that stands in for the second step once",
  options: {},
  positionals: ['USER'],
  async run({ positionals }, { io, configuration }) {
    const [username = ''] = positionals;
    const { config, sources } = configuration();
    await withAppStore(config, async (store) => {
      const user = await requireUser(store, username);
      const actor = actorNow();
      await resetSecondFactor(store, user.id, actor);
      const { token, expiresAt } = await issueSecondStepLink(store, user.id, actor);
      const hours = SECOND_STEP_LINK_LIFETIME_MS / 3_600_000;
      io.out(
        `Reset the second factors of ${user.username}: authenticator app, phone verification, passkeys and`,
      );
      io.out('recovery codes are gone; their sign-in falls back to a code sent to their email.');
      io.out('');
      io.out(
        `This link signs ${user.username} in once, after their password, within ${hours} hours (until ${expiresAt});`,
      );
      io.out('then they set up a new second factor on their account page:');
      io.out('');
      io.out(`  ${secondStepLinkOf(config.publicUrl, token)}`);
      io.out('');
      if (sources.sources.get('PUBLIC_URL')?.kind === 'default') {
        io.err(
          `Note: PUBLIC_URL is not set, so the link uses ${config.publicUrl}: change its address to where people reach DBUI.`,
        );
      }
      if (!user.password_hash) {
        io.err(
          `Note: ${user.username} has no password (social sign-in only): dbui admin reset-password ${user.username} gives them one.`,
        );
      }
      lockHint(io, user, actor.now);
    });
  },
};

export const userUnlock: Command = {
  name: 'user unlock',
  usage: 'dbui user unlock USER',
  summary: "lift a user's lock and clear their failed sign-in checks",
  options: {},
  positionals: ['USER'],
  async run({ positionals }, { io, configuration }) {
    const [username = ''] = positionals;
    const { config } = configuration();
    await withAppStore(config, async (store) => {
      const user = await requireUser(store, username);
      const actor = actorNow();
      const wasLocked = user.locked_until !== null && user.locked_until > actor.now.toISOString();
      await unlockUser(store, user.id, actor);
      io.out(
        wasLocked
          ? `Unlocked ${user.username} (locked until ${user.locked_until}); their failed checks start again from 0.`
          : `${user.username} was not locked; their failed checks (${user.failed_logins}) start again from 0.`,
      );
    });
  },
};
