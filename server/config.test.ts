import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, scanTimeoutOf } from './config.ts';

function problem(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('runs on embedded defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.host).toBe('127.0.0.1');
    expect(config.dataDir).toBe(path.resolve('data'));
    expect(config.appStore).toEqual({ kind: 'sqlite', file: path.resolve('data', 'app.db') });
    expect(config.databases).toEqual([]);
    expect(config.admin).toBeNull();
    expect(config.smtpUrl).toBeNull();
    expect(config.redisUrl).toBeNull();
    expect(config.statementTimeoutMs).toBe(15_000);
    expect(config.auditRetentionDays).toBe(365);
    expect(loadConfig({ AUDIT_RETENTION_DAYS: '30' }).auditRetentionDays).toBe(30);
  });

  it('reads every variable of the operator interface', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATA_DIR: '/tmp/dbui-x',
      APP_DB_URL: 'postgres://u:p@db:5432/app',
      DATABASES: 'shop=postgres://u:p@db/shop, crm=mysql://root@db:3306/crm,erp=mssql://sa:x@db:1433/erp',
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD: 'Admin#12345',
      ADMIN_EMAIL: 'admin@example.com',
      SMTP_URL: 'smtp://user:pass@mail:587',
      REDIS_URL: 'redis://127.0.0.1:6379',
    });
    expect(config.port).toBe(9000);
    expect(config.appStore).toEqual({ kind: 'postgres', url: 'postgres://u:p@db:5432/app' });
    expect(config.databases.map((d) => [d.name, d.kind])).toEqual([
      ['shop', 'postgres'],
      ['crm', 'mysql'],
      ['erp', 'mssql'],
    ]);
    expect(config.admin).toEqual({ username: 'admin', password: 'Admin#12345', email: 'admin@example.com' });
    expect(config.appDbUrl).toBe('postgres://u:p@db:5432/app');
  });

  it.each([
    [{ PORT: 'eighty' }, /^PORT: "eighty" must be a whole number from 0 to 65535\.$/],
    [{ PORT: '70000' }, /^PORT: /],
    [{ APP_DB_URL: 'mysql://root@db/app' }, /^APP_DB_URL: .* must start with sqlite:PATH, postgres:\/\/\.$/],
    [{ APP_DB_URL: 'postgres://' }, /^APP_DB_URL: .*not a valid URL/],
    [{ DATABASES: 'shop' }, /^DATABASES: "shop" is not name=url/],
    [{ DATABASES: 'shop=oracle://db/x' }, /^DATABASES: "oracle:\/\/db\/x" must start with/],
    [{ DATABASES: 'a b=postgres://db/x' }, /^DATABASES: the name "a b" may use only/],
    [{ DATABASES: 'x=postgres://db/a,X=postgres://db/b' }, /^DATABASES: the name "X" is given twice/],
    [{ DATABASES: 'x=sqlite:/no/such/file.db' }, /^DATABASES: the SQLite file of "x" does not exist/],
    [
      { ADMIN_USERNAME: 'admin' },
      /^ADMIN_PASSWORD: set ADMIN_USERNAME, ADMIN_PASSWORD and ADMIN_EMAIL together/,
    ],
    [
      { ADMIN_USERNAME: 'ad min', ADMIN_PASSWORD: 'Admin#12345', ADMIN_EMAIL: 'a@b.co' },
      /^ADMIN_USERNAME: Contains invalid characters\.$/,
    ],
    [
      { ADMIN_USERNAME: 'admin', ADMIN_PASSWORD: 'short', ADMIN_EMAIL: 'a@b.co' },
      /^ADMIN_PASSWORD: Password must be at least 8 characters\.$/,
    ],
    [
      { ADMIN_USERNAME: 'admin', ADMIN_PASSWORD: 'Admin#12345', ADMIN_EMAIL: 'nope' },
      /^ADMIN_EMAIL: Invalid Email Address\.$/,
    ],
    [{ SMTP_URL: 'mail.example.com' }, /^SMTP_URL: /],
    [{ REDIS_URL: 'localhost:6379' }, /^REDIS_URL: /],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL: must be one of/],
    [{ AUDIT_RETENTION_DAYS: '0' }, /^AUDIT_RETENTION_DAYS: "0" must be a whole number from 1 to 36500\.$/],
    [
      { LLM_BASE_URL: 'http://127.0.0.1:8081/v1' },
      /^LLM_API_KEY: set LLM_BASE_URL, LLM_API_KEY and LLM_MODEL together\.$/,
    ],
    [
      { LLM_API_KEY: 'k', LLM_MODEL: 'm' },
      /^LLM_BASE_URL: set LLM_BASE_URL, LLM_API_KEY and LLM_MODEL together\.$/,
    ],
    [{ LLM_BASE_URL: 'http://127.0.0.1:8081/v1', LLM_API_KEY: 'k' }, /^LLM_MODEL: /],
    [
      { LLM_BASE_URL: 'llama.local:8081', LLM_API_KEY: 'k', LLM_MODEL: 'm' },
      /^LLM_BASE_URL: .* must be an http/,
    ],
  ])('refuses %j with one line naming the variable', (env, expected) => {
    const message = problem(env);
    expect(message).toMatch(expected);
    expect(message).not.toContain('\n');
  });

  it('reads TRUST_PROXY as the proxies to believe, and refuses anything else with what to give', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1,fd00::/8' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
    ]);
    for (const bad of ['true', 'proxy.local', '10.0.0.0/33', '10.0.0.1/8/1', '0', '11']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
  });

  it('reads LLM_BASE_URL, LLM_API_KEY and LLM_MODEL together, or none (Titan answers alone)', () => {
    expect(loadConfig({}).llm).toBeNull();
    expect(
      loadConfig({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1/', LLM_API_KEY: 'ollama', LLM_MODEL: 'llama3.2' })
        .llm,
    ).toEqual({ baseUrl: 'http://127.0.0.1:11434/v1', apiKey: 'ollama', model: 'llama3.2' });
  });

  it("reads the site's outside addresses, each unset by default (its link is then left out)", () => {
    expect(loadConfig({}).siteLinks).toEqual({
      mastodon: null,
      sourceCode: null,
      shop: null,
      supportEmail: null,
    });
    expect(
      loadConfig({
        MASTODON_URL: 'https://social.example.org/@dbui',
        SOURCE_CODE_URL: 'https://code.example.org/dbui/',
        SHOP_URL: 'https://shop.example.org',
        SUPPORT_EMAIL: 'support@example.org',
      }).siteLinks,
    ).toEqual({
      mastodon: 'https://social.example.org/@dbui',
      sourceCode: 'https://code.example.org/dbui',
      shop: 'https://shop.example.org',
      supportEmail: 'support@example.org',
    });
    expect(problem({ SOURCE_CODE_URL: 'javascript:alert(1)' })).toMatch(/^SOURCE_CODE_URL: .*http/);
    expect(problem({ SHOP_URL: 'shop.example.org' })).toMatch(/^SHOP_URL: /);
    expect(problem({ MASTODON_URL: 'ftp://social.example.org' })).toMatch(/^MASTODON_URL: /);
    expect(problem({ SUPPORT_EMAIL: 'not an address' })).toMatch(/^SUPPORT_EMAIL: /);
  });

  it('reads POOL_SIZE, the connections per browsed database: 10 by default, a whole number from 1 to 200', () => {
    expect(loadConfig({}).poolSize).toBe(10);
    expect(loadConfig({ POOL_SIZE: '1' }).poolSize).toBe(1);
    expect(loadConfig({ POOL_SIZE: ' 50 ' }).poolSize).toBe(50);
    expect(loadConfig({ POOL_SIZE: '200' }).poolSize).toBe(200);
    for (const bad of ['0', '201', '2.5', 'ten', '-1']) {
      expect(problem({ POOL_SIZE: bad }), bad).toBe(
        `POOL_SIZE: "${bad}" must be a whole number from 1 to 200.`,
      );
    }
  });

  it('reads SCAN_TIMEOUT_MS and SCAN_TIMEOUTS, the scan budgets: 5 s by default, never above the statement timeout', () => {
    expect(loadConfig({})).toMatchObject({ scanTimeoutMs: 5_000, scanTimeoutsMs: {} });
    expect(loadConfig({ STATEMENT_TIMEOUT_MS: '3000' }).scanTimeoutMs).toBe(3_000);
    const databases = 'shop=postgres://u:p@db/shop,archive=mysql://root@db:3306/archive';
    const config = loadConfig({
      DATABASES: databases,
      SCAN_TIMEOUT_MS: '2000',
      SCAN_TIMEOUTS: 'archive=12000',
    });
    expect(config).toMatchObject({ scanTimeoutMs: 2_000, scanTimeoutsMs: { archive: 12_000 } });
    expect(scanTimeoutOf(config, 'archive')).toBe(12_000);
    expect(scanTimeoutOf(config, 'shop')).toBe(2_000);
    expect(problem({ SCAN_TIMEOUT_MS: '20000' })).toBe(
      'SCAN_TIMEOUT_MS: 20000 must not be longer than STATEMENT_TIMEOUT_MS (15000), which ends every statement.',
    );
    expect(problem({ SCAN_TIMEOUT_MS: '5s' })).toBe(
      'SCAN_TIMEOUT_MS: "5s" must be a whole number from 100 to 3600000.',
    );
    expect(problem({ DATABASES: databases, SCAN_TIMEOUTS: 'archive=60000' })).toMatch(
      /^SCAN_TIMEOUTS: 60000 must not be longer than STATEMENT_TIMEOUT_MS/,
    );
    expect(problem({ DATABASES: databases, SCAN_TIMEOUTS: 'crm=1000' })).toBe(
      'SCAN_TIMEOUTS: "crm" is not a database of DATABASES.',
    );
    expect(problem({ DATABASES: databases, SCAN_TIMEOUTS: 'archive' })).toBe(
      'SCAN_TIMEOUTS: "archive" is not name=milliseconds (for example archive=30000).',
    );
  });

  it('reads EXPORT_DIR, the export folder instances share: DATA_DIR/exports by default', () => {
    expect(loadConfig({}).exportDir).toBe(path.resolve('data', 'exports'));
    expect(loadConfig({ DATA_DIR: '/srv/dbui' }).exportDir).toBe(path.resolve('/srv/dbui/exports'));
    expect(loadConfig({ DATA_DIR: '/srv/dbui', EXPORT_DIR: '/mnt/shared/exports' }).exportDir).toBe(
      path.resolve('/mnt/shared/exports'),
    );
    expect(loadConfig({ EXPORT_DIR: ' shared/exports ' }).exportDir).toBe(path.resolve('shared/exports'));
  });

  it('defaults PUBLIC_URL to the address this machine reaches, localhost for a wildcard HOST', () => {
    expect(loadConfig({}).publicUrl).toBe('http://127.0.0.1:8080');
    expect(loadConfig({ HOST: '10.0.0.5', PORT: '9000' }).publicUrl).toBe('http://10.0.0.5:9000');
    expect(loadConfig({ HOST: '::1' }).publicUrl).toBe('http://[::1]:8080');
    // A container listens on every address: 0.0.0.0 is no origin a browser or a passkey can use.
    expect(loadConfig({ HOST: '0.0.0.0' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ HOST: '::' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ HOST: '0.0.0.0', PUBLIC_URL: 'https://dbui.example.com' }).publicUrl).toBe(
      'https://dbui.example.com',
    );
  });

  it('takes a SECRET_KEY of at least 32 characters, or none (the key file)', () => {
    expect(loadConfig({}).secretKey).toBeNull();
    expect(loadConfig({ SECRET_KEY: 'k'.repeat(32) }).secretKey).toBe('k'.repeat(32));
    expect(() => loadConfig({ SECRET_KEY: 'short' })).toThrow(/SECRET_KEY.*at least 32 characters/);
  });

  it('limits slow clients by default, and checks the limits against each other', () => {
    expect(loadConfig({}).httpTimeouts).toEqual({
      headersMs: 10_000,
      requestMs: 30_000,
      keepAliveMs: 5_000,
      idleMs: 120_000,
    });
    // A connection waiting for a slow statement sends nothing: the idle limit follows the statement timeout.
    expect(loadConfig({ STATEMENT_TIMEOUT_MS: '300000' }).httpTimeouts.idleMs).toBe(360_000);
    expect(
      loadConfig({
        HEADERS_TIMEOUT_MS: '2000',
        REQUEST_TIMEOUT_MS: '4000',
        KEEP_ALIVE_TIMEOUT_MS: '65000',
        IDLE_TIMEOUT_MS: '90000',
      }).httpTimeouts,
    ).toEqual({ headersMs: 2000, requestMs: 4000, keepAliveMs: 65_000, idleMs: 90_000 });
    expect(problem({ HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '4000' })).toMatch(
      /^HEADERS_TIMEOUT_MS: .*REQUEST_TIMEOUT_MS \(4000\)/,
    );
    expect(problem({ STATEMENT_TIMEOUT_MS: '60000', IDLE_TIMEOUT_MS: '30000' })).toMatch(
      /^IDLE_TIMEOUT_MS: .*STATEMENT_TIMEOUT_MS \(60000\)/,
    );
    expect(problem({ REQUEST_TIMEOUT_MS: 'soon' })).toMatch(
      /^REQUEST_TIMEOUT_MS: "soon" must be a whole number/,
    );
  });

  it('never prints a password from a URL', () => {
    expect(problem({ DATABASES: 'x=oracle://user:secret@db/x' })).not.toContain('secret');
  });
});
