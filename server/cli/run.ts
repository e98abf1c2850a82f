import { parseArgs } from 'node:util';
import { ConfigError, type Config } from '#server/config.ts';
import { loadConfiguration, type ConfigSources } from '#server/config-sources.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import { adminCreate, adminResetPassword, adminResetSecondFactor, userUnlock } from './account-commands.ts';
import { reasonOf } from './app-store-access.ts';
import { CliError, type CliIo } from './cli-io.ts';
import type { Command, CommandContext } from './command.ts';
import { configCheck } from './config-check.ts';
import { backup, migrate } from './store-commands.ts';

/*
 * `dbui`, the operator's command line (decision 0057). It reads the configuration as the server does (the
 * environment, .env, the secrets' files) and works on the same app store through the same services. Exit codes: 0
 * done, 1 refused or failed (the message says why), 2 wrong arguments (nothing was changed).
 */

export const commands: readonly Command[] = [
  adminCreate,
  adminResetPassword,
  adminResetSecondFactor,
  userUnlock,
  backup,
  migrate,
  configCheck,
];

function helpText(): string {
  return [
    'usage: dbui COMMAND [ARGUMENTS]',
    '',
    ...commands.flatMap((command) => [`  ${command.usage}`, `      ${command.summary}`]),
    '',
    'dbui reads the settings the server reads: the environment, a .env file (DOTENV_PATH names another), NAME_FILE',
    'for secrets. Run it where the server runs, with the same settings. dbui COMMAND --help shows one command.',
  ].join('\n');
}

/** Runs `dbui` with `argv` (the arguments after the program); answers the exit code. */
export async function runDbui(
  argv: string[],
  io: CliIo,
  environment: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): Promise<number> {
  const [first = ''] = argv;
  if (argv.length === 0 || ['help', '--help', '-h'].includes(first)) {
    (argv.length === 0 ? io.err : io.out)(helpText());
    return argv.length === 0 ? 2 : 0;
  }
  const command = commands.find((candidate) =>
    candidate.name.split(' ').every((word, index) => argv[index] === word),
  );
  if (!command) {
    const near = commands.filter((candidate) => candidate.name.startsWith(`${first} `));
    io.err(`dbui: there is no command "${argv.slice(0, near.length > 0 ? 2 : 1).join(' ')}".`);
    io.err(near.length > 0 ? near.map((c) => `usage: ${c.usage}`).join('\n') : helpText());
    return 2;
  }
  const rest = argv.slice(command.name.split(' ').length);
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(`usage: ${command.usage}\n\n${command.summary}.`);
    return 0;
  }
  const refuse = (message: string, usage: boolean) => {
    io.err(`dbui: ${message}`);
    if (usage) io.err(`usage: ${command.usage}`);
    return usage ? 2 : 1;
  };

  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({
      args: rest,
      options: command.options,
      allowPositionals: true,
      strict: true,
    }) as typeof parsed;
  } catch (error) {
    // Node's own sentence, up to its advice on positionals that start with "-".
    return refuse(reasonOf(error).split('. To specify')[0]?.replace(/\.?$/, '.') ?? 'wrong arguments.', true);
  }
  const expected = command.positionals;
  if (parsed.positionals.length < expected.length)
    return refuse(`missing ${expected.slice(parsed.positionals.length).join(' ')}.`, true);
  if (parsed.positionals.length > expected.length)
    return refuse(`unexpected "${parsed.positionals.slice(expected.length).join(' ')}".`, true);

  let loaded: { config: Config; sources: ConfigSources } | null = null;
  const context: CommandContext = {
    io,
    environment,
    cwd,
    configuration() {
      loaded ??= loadConfiguration(environment, cwd);
      return loaded;
    },
  };
  try {
    await command.run(parsed, context);
    return 0;
  } catch (error) {
    if (error instanceof CliError) return refuse(error.message, error.usage);
    // The server's own refusals: a malformed setting, a rule of the services (the last administrator, a common
    // password), said as the server says them.
    if (error instanceof ConfigError || error instanceof ApiError) return refuse(error.message, false);
    return refuse(`${command.name} failed: ${reasonOf(error)}`, false);
  }
}
