import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { configVariables, secretVariables } from './config-variables.ts';

/*
 * Where the configuration comes from (decision 0057), before server/config.ts parses it: the process environment,
 * then a `.env` file for what the environment leaves unset, then `NAME_FILE` for each secret. main.ts and the `dbui`
 * command line both start here, so they read the same settings.
 */

/** Where a variable's value came from. */
export type ValueSource =
  | { kind: 'default' }
  | { kind: 'environment' }
  | { kind: 'dotenv'; file: string }
  /** Read from the file NAME_FILE names; `via` is where NAME_FILE itself was set. */
  | { kind: 'file'; variable: string; file: string; via: 'environment' | 'dotenv' };

export interface ConfigSources {
  /** What loadConfig reads: the environment, the .env file's values under it, the secrets read from their files. */
  env: Record<string, string | undefined>;
  /** The source of every variable of configVariables. */
  sources: ReadonlyMap<string, ValueSource>;
  /** The .env file that was read, or null when there was none. */
  dotenvFile: string | null;
  /** NAME_FILE variables that are not read: NAME is no secret (or no variable), so nothing has a _FILE variant. */
  ignoredFileVariables: string[];
}

/** The default file, in the working directory; DOTENV_PATH names another. */
export const DOTENV_FILE = '.env';

const isSet = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

/**
 * Reads `.env` (or DOTENV_PATH, which must then exist) when present, under the environment: a variable already in
 * the environment, even empty, keeps its value. Then every secret given as NAME_FILE is read from that file, its
 * trailing line breaks trimmed. Throws ConfigError naming the variable: a DOTENV_PATH that cannot be read, a .env
 * file that is not one, NAME and NAME_FILE both set, a file that cannot be read or is empty.
 */
export function readConfigSources(
  environment: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): ConfigSources {
  const { values: fromFile, file: dotenvFile } = readDotenv(environment, cwd);
  const env: Record<string, string | undefined> = { ...fromFile };
  for (const [name, value] of Object.entries(environment)) if (value !== undefined) env[name] = value;
  const origin = (name: string): ValueSource =>
    name in environment && environment[name] !== undefined
      ? { kind: 'environment' }
      : dotenvFile && name in fromFile
        ? { kind: 'dotenv', file: dotenvFile }
        : { kind: 'default' };

  const sources = new Map<string, ValueSource>();
  for (const { name } of configVariables) {
    const fileVariable = `${name}_FILE`;
    if (secretVariables.has(name) && isSet(env[fileVariable])) {
      if (isSet(env[name])) {
        throw new ConfigError(
          fileVariable,
          `${name} is set too: give the secret one way, ${name} or ${fileVariable}.`,
        );
      }
      const file = path.resolve(cwd, env[fileVariable].trim());
      env[name] = readSecretFile(fileVariable, file);
      const via = origin(fileVariable).kind === 'environment' ? 'environment' : 'dotenv';
      sources.set(name, { kind: 'file', variable: fileVariable, file, via });
    } else {
      sources.set(name, isSet(env[name]) ? origin(name) : { kind: 'default' });
    }
  }
  const ignoredFileVariables = Object.keys(env)
    .filter((name) => name.endsWith('_FILE') && isSet(env[name]) && !secretVariables.has(name.slice(0, -5)))
    .filter((name) => configVariables.some((variable) => variable.name === name.slice(0, -5)))
    .sort();
  return { env, sources, dotenvFile, ignoredFileVariables };
}

function readDotenv(
  environment: NodeJS.ProcessEnv,
  cwd: string,
): { values: Record<string, string>; file: string | null } {
  const given = environment.DOTENV_PATH?.trim();
  const file = path.resolve(cwd, given || DOTENV_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    // Without DOTENV_PATH the file is optional; a file named on purpose must be there.
    if (!given && (error as NodeJS.ErrnoException).code === 'ENOENT') return { values: {}, file: null };
    throw new ConfigError(given ? 'DOTENV_PATH' : DOTENV_FILE, `cannot read ${file}: ${reasonOf(error)}.`);
  }
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(parseEnv(text))) if (value !== undefined) values[name] = value;
  return { values, file };
}

/** A secret's file: its text without the line break(s) an editor or `echo` leaves at the end. */
function readSecretFile(variable: string, file: string): string {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(variable, `cannot read ${file}: ${reasonOf(error)}.`);
  }
  const value = text.replace(/[\r\n]+$/, '');
  if (value.trim() === '') throw new ConfigError(variable, `${file} is empty.`);
  return value;
}

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES') return 'permission denied';
  if (code === 'EISDIR') return 'it is a folder';
  return error instanceof Error ? error.message : String(error);
}

/** A source in words, for `dbui config check` and start-up errors. */
export function describeSource(source: ValueSource): string {
  switch (source.kind) {
    case 'default':
      return 'default';
    case 'environment':
      return 'environment';
    case 'dotenv':
      return source.file;
    case 'file':
      return `${source.variable} (${source.file})`;
  }
}

/**
 * A value fit to print: a secret URL keeps its scheme, host and path with the password (or a lone token) hidden,
 * DATABASES each of its URLs so; any other secret only its length.
 */
export function maskSecret(name: string, value: string): string {
  if (name === 'DATABASES') {
    return value
      .split(',')
      .map((entry) => {
        const eq = entry.indexOf('=');
        return eq > 0 ? `${entry.slice(0, eq)}=${maskUrl(entry.slice(eq + 1))}` : '***';
      })
      .join(',');
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return maskUrl(value);
  if (/^sqlite:/i.test(value)) return value;
  return `*** (${value.length} characters)`;
}

function maskUrl(url: string): string {
  if (/^sqlite:/i.test(url.trim())) return url;
  try {
    const parsed = new URL(url.trim());
    if (parsed.password) parsed.password = '***';
    else if (parsed.username) parsed.username = '***';
    return parsed.toString();
  } catch {
    return '***';
  }
}

/**
 * The configuration as main.ts and the command line load it: readConfigSources, then loadConfig. A bad value read
 * from the .env file or a secret's file says where it was read, since the environment does not show it.
 */
export function loadConfiguration(
  environment: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): { config: Config; sources: ConfigSources } {
  const sources = readConfigSources(environment, cwd);
  try {
    return { config: loadConfig(sources.env), sources };
  } catch (error) {
    const source = error instanceof ConfigError ? sources.sources.get(error.variable) : undefined;
    if (
      !(error instanceof ConfigError) ||
      !source ||
      source.kind === 'default' ||
      source.kind === 'environment'
    )
      throw error;
    const problem = error.message.slice(error.variable.length + 2).replace(/\.$/, '');
    throw new ConfigError(error.variable, `${problem} (read from ${describeSource(source)}).`);
  }
}
