import { ConfigError } from '#server/config.ts';
import { describeSource, loadConfiguration, maskSecret, readConfigSources } from '#server/config-sources.ts';
import { configVariables } from '#server/config-variables.ts';
import { CliError } from './cli-io.ts';
import type { Command } from './command.ts';

/** `dbui config check`: every variable with where its value came from, secrets masked, then the server's checks. */
export const configCheck: Command = {
  name: 'config check',
  usage: 'dbui config check',
  summary: 'every setting with its value and where it came from (secrets masked); fails on a malformed one',
  options: {},
  positionals: [],
  async run(_args, { io, environment, cwd }) {
    let read;
    try {
      read = readConfigSources(environment, cwd);
    } catch (error) {
      if (error instanceof ConfigError) throw new CliError(error.message);
      throw error;
    }
    const rows = configVariables.map((variable) => {
      const raw = read.env[variable.name]?.trim();
      const source = read.sources.get(variable.name) ?? { kind: 'default' as const };
      const value = raw
        ? variable.secret
          ? maskSecret(variable.name, raw)
          : raw
        : (variable.default ?? `(unset${variable.note ? `: ${variable.note}` : ''})`);
      return [variable.name, describeSource(source), value] as const;
    });
    const header = ['VARIABLE', 'SOURCE', 'VALUE'] as const;
    const nameWidth = Math.max(...[header, ...rows].map(([name]) => name.length));
    const sourceWidth = Math.max(...[header, ...rows].map(([, source]) => source.length));
    io.out(`.env file: ${read.dotenvFile ?? 'none'}`);
    io.out('');
    for (const [name, source, value] of [header, ...rows]) {
      io.out(`${name.padEnd(nameWidth)}  ${source.padEnd(sourceWidth)}  ${value}`.trimEnd());
    }
    io.out('');
    for (const name of read.ignoredFileVariables) {
      io.err(
        `Note: ${name} is not read: ${name.slice(0, -'_FILE'.length)} is no secret, so it has no _FILE variant.`,
      );
    }
    try {
      loadConfiguration(environment, cwd);
    } catch (error) {
      if (error instanceof ConfigError) throw new CliError(error.message);
      throw error;
    }
    io.out('The configuration is valid.');
  },
};
