import type { ParseArgsConfig } from 'node:util';
import type { Config } from '#server/config.ts';
import type { ConfigSources } from '#server/config-sources.ts';
import type { CliIo } from './cli-io.ts';

/** One `dbui` command: its words, usage line, options (node:util parseArgs) and required positionals. */
export interface Command {
  /** The words that name it: `admin create`, `backup`. */
  name: string;
  usage: string;
  /** One line for `dbui help`. */
  summary: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** The names of the positionals it takes, each required (USER, FILE). */
  positionals: string[];
  run(
    args: { values: Record<string, string | boolean | undefined>; positionals: string[] },
    context: CommandContext,
  ): Promise<void>;
}

export interface CommandContext {
  io: CliIo;
  /** The configuration as the server reads it (config-sources.ts), loaded when first asked for; a malformed one
   * refuses the command with the server's message. */
  configuration(): { config: Config; sources: ConfigSources };
  /** The environment and working directory the configuration is read from. */
  environment: NodeJS.ProcessEnv;
  cwd: string;
}
