import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { maskSecret, readConfigSources } from './config-sources.ts';
import { configVariables, secretVariables } from './config-variables.ts';
import { repoRoot } from './test/test-app.ts';
import { tempDir } from './test/temp-dir.ts';

/** The variables loadConfig reads from `env`, recorded as it reads them. */
function readsOf(env: Record<string, string>): Set<string> {
  const reads = new Set<string>();
  const recording = new Proxy(env, {
    get(target, name) {
      if (typeof name === 'string') reads.add(name);
      return Reflect.get(target, name);
    },
  });
  loadConfig(recording);
  return reads;
}

const names = configVariables.map((variable) => variable.name).sort();

describe('the list of variables', () => {
  it('is what loadConfig reads, whatever is set', () => {
    // Some variables are read only once others are set (a social provider's issuer once its id and secret are).
    const everyPair = Object.fromEntries(
      names.filter((name) => /^OAUTH_.+_CLIENT_(ID|SECRET)$/.test(name)).map((name) => [name, 'x']),
    );
    const reads = new Set([...readsOf({}), ...readsOf(everyPair)]);
    expect([...reads].sort()).toEqual(names);
  });

  it('gives each default loadConfig really uses: setting it changes nothing', () => {
    for (const variable of configVariables) {
      if (variable.default === null) continue;
      expect(loadConfig({ [variable.name]: variable.default }), variable.name).toEqual(loadConfig({}));
    }
  });

  it('is what .env.example lists, each with its default', () => {
    const text = fs.readFileSync(path.join(repoRoot, '.env.example'), 'utf8');
    const lines = text.split('\n').flatMap((line) => {
      const match = /^(?:# ?)?([A-Z][A-Z0-9_]*=.*)$/.exec(line);
      return match?.[1] ? [match[1]] : [];
    });
    const listed = lines.map((line) => line.slice(0, line.indexOf('=')));
    expect([...listed].sort()).toEqual(names);
    expect(new Set(listed).size).toBe(listed.length);
    const values = parseEnv(lines.join('\n'));
    for (const variable of configVariables) {
      expect(values[variable.name], variable.name).toBe(variable.default ?? '');
    }
  });
});

describe('readConfigSources', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());
  const file = (name: string, text: string) => {
    const at = path.join(dir.path, name);
    fs.writeFileSync(at, text);
    return at;
  };
  const problem = (run: () => unknown): string => {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('expected a ConfigError');
  };

  it('reads .env from the working directory under the environment, which wins', () => {
    const cwd = fs.mkdtempSync(path.join(dir.path, 'cwd-'));
    fs.writeFileSync(
      path.join(cwd, '.env'),
      '# a comment\nPORT=9001\nexport LOG_LEVEL=warn\nMAIL_FROM="Team <team@example.com>"\nHOST=0.0.0.0\n',
    );
    const { env, sources, dotenvFile } = readConfigSources({ HOST: '127.0.0.2', PATH: '/bin' }, cwd);
    expect(dotenvFile).toBe(path.join(cwd, '.env'));
    expect(env).toMatchObject({
      PORT: '9001',
      LOG_LEVEL: 'warn',
      MAIL_FROM: 'Team <team@example.com>',
      HOST: '127.0.0.2',
      PATH: '/bin',
    });
    expect(sources.get('PORT')).toEqual({ kind: 'dotenv', file: path.join(cwd, '.env') });
    expect(sources.get('HOST')).toEqual({ kind: 'environment' });
    expect(sources.get('POOL_SIZE')).toEqual({ kind: 'default' });
    const config = loadConfig(env);
    expect([config.port, config.host, config.logLevel, config.mailFrom]).toEqual([
      9001,
      '127.0.0.2',
      'warn',
      'Team <team@example.com>',
    ]);
  });

  it('keeps a variable the environment sets empty, and runs without any .env', () => {
    const cwd = fs.mkdtempSync(path.join(dir.path, 'cwd-'));
    expect(readConfigSources({}, cwd).dotenvFile).toBeNull();
    fs.writeFileSync(path.join(cwd, '.env'), 'PORT=9001\n');
    const { env, sources } = readConfigSources({ PORT: '' }, cwd);
    expect(env.PORT).toBe('');
    expect(sources.get('PORT')).toEqual({ kind: 'default' });
  });

  it('reads the file DOTENV_PATH names, which must exist', () => {
    const named = file('settings.env', 'POOL_SIZE=7\n');
    expect(readConfigSources({ DOTENV_PATH: named }, dir.path).env.POOL_SIZE).toBe('7');
    expect(problem(() => readConfigSources({ DOTENV_PATH: path.join(dir.path, 'none.env') }, dir.path))).toBe(
      `DOTENV_PATH: cannot read ${path.join(dir.path, 'none.env')}: no such file.`,
    );
  });

  it('reads a secret from NAME_FILE, without its trailing line break', () => {
    const key = file('secret_key', 'k'.repeat(40) + '\n');
    const smtp = file('smtp_url', 'smtp://user:p%20ss@mail:587\r\n');
    const { env, sources } = readConfigSources({ SECRET_KEY_FILE: key, SMTP_URL_FILE: smtp }, dir.path);
    expect(env.SECRET_KEY).toBe('k'.repeat(40));
    expect(env.SMTP_URL).toBe('smtp://user:p%20ss@mail:587');
    expect(sources.get('SECRET_KEY')).toEqual({
      kind: 'file',
      variable: 'SECRET_KEY_FILE',
      file: key,
      via: 'environment',
    });
    expect(loadConfig(env).secretKey).toBe('k'.repeat(40));
  });

  it('gives every secret a _FILE variant, from .env too', () => {
    expect([...secretVariables].sort()).toEqual(
      expect.arrayContaining([
        'ADMIN_PASSWORD',
        'APP_DB_URL',
        'DATABASES',
        'LLM_API_KEY',
        'METRICS_TOKEN',
        'OAUTH_GOOGLE_CLIENT_SECRET',
        'OIDC_CLIENT_SECRET',
        'REDIS_URL',
        'SECRET_KEY',
        'SMS_URL',
        'SMTP_URL',
      ]),
    );
    const cwd = fs.mkdtempSync(path.join(dir.path, 'cwd-'));
    const lines = [...secretVariables].map((name) => {
      fs.writeFileSync(path.join(cwd, name.toLowerCase()), `value of ${name}\n`);
      return `${name}_FILE=${name.toLowerCase()}`;
    });
    fs.writeFileSync(path.join(cwd, '.env'), lines.join('\n'));
    const { env, sources } = readConfigSources({}, cwd);
    for (const name of secretVariables) {
      expect(env[name]).toBe(`value of ${name}`);
      expect(sources.get(name)).toMatchObject({ kind: 'file', via: 'dotenv' });
    }
  });

  it('refuses a secret given twice, an unreadable file and an empty one', () => {
    const key = file('key2', 'k'.repeat(40));
    expect(
      problem(() => readConfigSources({ SECRET_KEY: 'x'.repeat(40), SECRET_KEY_FILE: key }, dir.path)),
    ).toBe('SECRET_KEY_FILE: SECRET_KEY is set too: give the secret one way, SECRET_KEY or SECRET_KEY_FILE.');
    expect(problem(() => readConfigSources({ METRICS_TOKEN_FILE: 'missing' }, dir.path))).toBe(
      `METRICS_TOKEN_FILE: cannot read ${path.join(dir.path, 'missing')}: no such file.`,
    );
    const empty = file('empty', '\n');
    expect(problem(() => readConfigSources({ METRICS_TOKEN_FILE: empty }, dir.path))).toBe(
      `METRICS_TOKEN_FILE: ${empty} is empty.`,
    );
  });

  it('names the _FILE variables of settings that are no secret, and reads none of them', () => {
    const port = file('port', '9000');
    const { env, ignoredFileVariables } = readConfigSources({ PORT_FILE: port }, dir.path);
    expect(env.PORT).toBeUndefined();
    expect(ignoredFileVariables).toEqual(['PORT_FILE']);
  });
});

describe('maskSecret', () => {
  it('hides passwords in URLs and every other secret but its length', () => {
    expect(maskSecret('APP_DB_URL', 'postgres://dbui:s3cret@db:5432/app')).toBe(
      'postgres://dbui:***@db:5432/app',
    );
    expect(maskSecret('APP_DB_URL', 'sqlite:/data/app.db')).toBe('sqlite:/data/app.db');
    expect(maskSecret('REDIS_URL', 'redis://:s3cret@cache:6379')).toBe('redis://:***@cache:6379');
    expect(maskSecret('DATABASES', 'shop=postgres://u:p@db/shop,local=sqlite:./x.db')).toBe(
      'shop=postgres://u:***@db/shop,local=sqlite:./x.db',
    );
    expect(maskSecret('SECRET_KEY', 'k'.repeat(44))).toBe('*** (44 characters)');
  });
});
