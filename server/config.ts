import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import type { EngineKind } from '#server/engines/engine.ts';
import { engineKindOf, redactUrl as redact, sqliteFileOf as sqliteFile } from '#server/engines/engine-url.ts';
import { emailField, passwordField, usernameField } from '#common/contract/account.ts';
import type { SiteLinks } from '#common/content/site.ts';

/** A browsable database as the operator registered it. */
export interface DatabaseSetting {
  name: string;
  url: string;
  kind: EngineKind;
}

export interface AdminSetting {
  username: string;
  password: string;
  email: string;
}

/** The operator interface: every environment variable, parsed once. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** EXPORT_DIR: where export files are written and downloaded from; instances share it (NFS or similar), so a
   * download reaching any instance finds the file whatever instance's worker wrote it. Default DATA_DIR/exports. */
  exportDir: string;
  /** APP_DB_URL as given (or its default), and where it points. */
  appDbUrl: string;
  appStore: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
  /** Empty means: register the embedded demo database. */
  databases: DatabaseSetting[];
  admin: AdminSetting | null;
  smtpUrl: string | null;
  redisUrl: string | null;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Longest a statement against a browsed database may run (ms). */
  statementTimeoutMs: number;
  /** POOL_SIZE: the most connections DBUI opens to each browsed database (its pool's size). */
  poolSize: number;
  /** How long a client may take over its side of the conversation (ms): see httpTimeoutsOf. */
  httpTimeouts: HttpTimeouts;
  /** The address people reach DBUI at: links in mail, OAuth redirect URIs, the WebAuthn origin. */
  publicUrl: string;
  /** Sender of DBUI's mail. */
  mailFrom: string;
  /** CONTACT_TO: where the contact form's messages are mailed; null: they are only stored for the admin inbox. */
  contactTo: string | null;
  /** MASTODON_URL, SOURCE_CODE_URL, SHOP_URL (the footer's and home page's outside links) and SUPPORT_EMAIL (the
   * address Titan names): each null while unset, and then left out of the site. */
  siteLinks: SiteLinks;
  /** A Twilio-compatible Messages endpoint with credentials (https://SID:TOKEN@host/…/Messages.json), or null:
   * SMS go to the outbox. */
  smsUrl: string | null;
  smsFrom: string | null;
  /** The human check's work: the largest number the proof-of-work may need. */
  captchaCost: number;
  sessionIdleMinutes: number;
  sessionMaxHours: number;
  /** Passwords older than this must be changed; null: never (current guidance). */
  passwordMaxAgeDays: number | null;
  /** Audit entries older than this many days are deleted (at start and daily). */
  auditRetentionDays: number;
  /** Social sign-in providers that are configured. */
  oauth: Partial<Record<OAuthProviderName, OAuthProviderSetting>>;
  /** Which proxies' X-Forwarded-For/-Proto/-Host to believe (Fastify's trustProxy): false (none, the default),
   * the addresses or CIDR ranges of the proxies, or the number of proxies in front. */
  trustProxy: false | string[] | number;
  /** Seals stored secrets (authenticator keys); null: a key file in DATA_DIR. */
  secretKey: string | null;
  /** METRICS_TOKEN: the bearer token a Prometheus scraper sends to GET /api/metrics; null: metrics are off (404) and
   * no request is timed. */
  metricsToken: string | null;
  /** LLM_BASE_URL, LLM_API_KEY, LLM_MODEL: an OpenAI-compatible chat-completions service Titan may phrase its
   * answers with; null: Titan answers from the site's own content alone. */
  llm: LlmSetting | null;
}

/** An OpenAI-compatible service: `${baseUrl}/chat/completions` is called with the bearer key and the model. */
export interface LlmSetting {
  baseUrl: string;
  apiKey: string;
  model: string;
}

/**
 * Limits on slow clients (issue 10 finding 4), each in milliseconds. A client that sends its request slowly, or
 * not at all, is disconnected; an answer being sent is never cut while it moves (a long export download).
 */
export interface HttpTimeouts {
  /** HEADERS_TIMEOUT_MS: from the connection (or the previous answer) to the request's last header line. */
  headersMs: number;
  /** REQUEST_TIMEOUT_MS: to the request's last body byte; at least HEADERS_TIMEOUT_MS. */
  requestMs: number;
  /** KEEP_ALIVE_TIMEOUT_MS: how long a connection may wait, idle, for its next request. */
  keepAliveMs: number;
  /** IDLE_TIMEOUT_MS: a connection on which nothing moves either way (a client that stops reading an answer);
   * longer than STATEMENT_TIMEOUT_MS, since a request waiting for its database sends nothing meanwhile. */
  idleMs: number;
}

export const oauthProviderNames = ['google', 'microsoft', 'facebook'] as const;
export type OAuthProviderName = (typeof oauthProviderNames)[number];
export interface OAuthProviderSetting {
  clientId: string;
  clientSecret: string;
  /** Overrides the provider's usual issuer (tests point it at a local OpenID provider). */
  issuer: string | null;
}

/** A start-up problem with one variable; main.ts prints its message as one line and exits. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable}: ${problem}`);
  }
}

function checkUrl(variable: string, url: string, allowed: readonly EngineKind[]): EngineKind {
  const kind = engineKindOf(url);
  if (!kind || !allowed.includes(kind)) {
    throw new ConfigError(
      variable,
      `"${redact(url)}" must start with ${allowed.map(schemeHint).join(', ')}.`,
    );
  }
  if (kind === 'sqlite') {
    if (!sqliteFile(url))
      throw new ConfigError(variable, 'sqlite: needs a file path, as in sqlite:./data/app.db.');
    return kind;
  }
  try {
    const parsed = new URL(url);
    if (!parsed.hostname) throw new Error('no host');
  } catch {
    throw new ConfigError(
      variable,
      `"${redact(url)}" is not a valid URL (expected ${schemeHint(kind)}//user:password@host:port/database).`,
    );
  }
  return kind;
}

function schemeHint(kind: EngineKind): string {
  return kind === 'sqlite' ? 'sqlite:PATH' : `${kind}://`;
}

function parseDatabases(raw: string): DatabaseSetting[] {
  const seen = new Set<string>();
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const eq = entry.indexOf('=');
      const name = eq > 0 ? entry.slice(0, eq).trim() : '';
      const url = entry.slice(eq + 1).trim();
      if (eq <= 0 || !url)
        throw new ConfigError(
          'DATABASES',
          `"${redact(entry)}" is not name=url (for example demo=sqlite:./demo.db).`,
        );
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
        throw new ConfigError(
          'DATABASES',
          `the name "${name}" may use only letters, digits, _ and - (at most 64).`,
        );
      }
      if (seen.has(name.toLowerCase()))
        throw new ConfigError('DATABASES', `the name "${name}" is given twice.`);
      seen.add(name.toLowerCase());
      const kind = checkUrl('DATABASES', url, ['sqlite', 'postgres', 'mysql', 'mssql']);
      if (kind === 'sqlite' && !fs.existsSync(sqliteFile(url))) {
        throw new ConfigError(
          'DATABASES',
          `the SQLite file of "${name}" does not exist: ${sqliteFile(url)}.`,
        );
      }
      return { name, url, kind };
    });
}

const intIn = (
  variable: string,
  raw: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number => {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(variable, `"${raw}" must be a whole number from ${min} to ${max}.`);
  }
  return value;
};

/** An http(s) URL without a trailing slash, or null when not given. */
function httpUrl(variable: string, raw: string | undefined): string | null {
  if (!raw) return null;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    return raw.replace(/\/+$/, '');
  } catch {
    throw new ConfigError(variable, `"${redact(raw)}" must be an http:// or https:// URL.`);
  }
}

/**
 * TRUST_PROXY: unset or `false`, none (the address is the connection's); a number of proxies in front (1: the one
 * reverse proxy); or a comma-separated list of the proxies' addresses or CIDR ranges (`127.0.0.1,10.0.0.0/8`).
 * `true` (believe anyone) is refused: anyone could then choose the address rate limits and the audit see.
 */
function trustProxyOf(raw: string | undefined): Config['trustProxy'] {
  if (!raw || raw.toLowerCase() === 'false') return false;
  if (raw.toLowerCase() === 'true') {
    throw new ConfigError(
      'TRUST_PROXY',
      "true would believe any client about its own address; give the proxies' addresses (127.0.0.1,10.0.0.0/8) or their number (1).",
    );
  }
  if (/^\d+$/.test(raw)) return intIn('TRUST_PROXY', raw, 0, 1, 10);
  const entries = raw.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const [address = '', bits, ...rest] = entry.split('/');
    const version = net.isIP(address);
    const maxBits = version === 6 ? 128 : 32;
    const bitsOk = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= maxBits);
    if (!version || !bitsOk || rest.length > 0) {
      throw new ConfigError(
        'TRUST_PROXY',
        `"${entry}" is not an IP address or CIDR range; give the proxies' addresses (127.0.0.1,10.0.0.0/8) or their number (1).`,
      );
    }
  }
  return entries;
}

/** HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS and IDLE_TIMEOUT_MS, checked against each other. */
function httpTimeoutsOf(
  value: (name: string) => string | undefined,
  statementTimeoutMs: number,
): HttpTimeouts {
  const headersMs = intIn('HEADERS_TIMEOUT_MS', value('HEADERS_TIMEOUT_MS'), 10_000, 100, 600_000);
  const requestMs = intIn('REQUEST_TIMEOUT_MS', value('REQUEST_TIMEOUT_MS'), 30_000, 100, 3_600_000);
  if (headersMs > requestMs) {
    throw new ConfigError(
      'HEADERS_TIMEOUT_MS',
      `${headersMs} must not be longer than REQUEST_TIMEOUT_MS (${requestMs}), which includes the headers.`,
    );
  }
  const keepAliveMs = intIn('KEEP_ALIVE_TIMEOUT_MS', value('KEEP_ALIVE_TIMEOUT_MS'), 5_000, 100, 3_600_000);
  const idleDefault = Math.max(120_000, statementTimeoutMs + 60_000);
  const idleMs = intIn('IDLE_TIMEOUT_MS', value('IDLE_TIMEOUT_MS'), idleDefault, 1_000, 7_200_000);
  if (idleMs <= statementTimeoutMs) {
    throw new ConfigError(
      'IDLE_TIMEOUT_MS',
      `${idleMs} must be longer than STATEMENT_TIMEOUT_MS (${statementTimeoutMs}): a request waiting for its database sends nothing meanwhile.`,
    );
  }
  return { headersMs, requestMs, keepAliveMs, idleMs };
}

/** SECRET_KEY: long random text (hashed to the AES key), or unset for the key file. */
function secretKeyOf(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  if (raw.length < 32)
    throw new ConfigError(
      'SECRET_KEY',
      'must be at least 32 characters of random text (openssl rand -base64 32).',
    );
  return raw;
}

const logLevels = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/** Reads the operator interface from the environment; throws ConfigError naming the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const value = (name: string) => {
    const v = env[name]?.trim();
    return v ? v : undefined;
  };
  const dataDir = path.resolve(value('DATA_DIR') ?? './data');
  const appDbUrl = value('APP_DB_URL') ?? `sqlite:${path.join(dataDir, 'app.db')}`;
  const appDbKind = checkUrl('APP_DB_URL', appDbUrl, ['sqlite', 'postgres']) as 'sqlite' | 'postgres';

  const adminParts = {
    username: value('ADMIN_USERNAME'),
    password: value('ADMIN_PASSWORD'),
    email: value('ADMIN_EMAIL'),
  };
  const given = Object.entries(adminParts).filter(([, v]) => v !== undefined);
  if (given.length > 0 && given.length < 3) {
    const missing = Object.entries(adminParts).find(([, v]) => v === undefined)?.[0] ?? 'username';
    throw new ConfigError(
      `ADMIN_${missing.toUpperCase()}`,
      'set ADMIN_USERNAME, ADMIN_PASSWORD and ADMIN_EMAIL together, or none of them.',
    );
  }

  const smtpUrl = value('SMTP_URL') ?? null;
  if (smtpUrl && !/^smtps?:\/\/[^/]+/i.test(smtpUrl)) {
    throw new ConfigError('SMTP_URL', `"${redact(smtpUrl)}" must look like smtp://user:pass@host:port.`);
  }
  const redisUrl = value('REDIS_URL') ?? null;
  if (redisUrl && !/^rediss?:\/\/[^/]+/i.test(redisUrl)) {
    throw new ConfigError('REDIS_URL', `"${redact(redisUrl)}" must look like redis://host:6379.`);
  }
  const logLevel = logLevels.safeParse(value('LOG_LEVEL') ?? 'info');
  if (!logLevel.success)
    throw new ConfigError('LOG_LEVEL', `must be one of ${logLevels.options.join(', ')}.`);

  if (given.length === 3) {
    for (const [variable, schema, raw] of [
      ['ADMIN_USERNAME', usernameField, adminParts.username],
      ['ADMIN_PASSWORD', passwordField, adminParts.password],
      ['ADMIN_EMAIL', emailField, adminParts.email],
    ] as const) {
      const checked = schema.safeParse(raw);
      if (!checked.success)
        throw new ConfigError(variable, checked.error.issues[0]?.message ?? 'is not valid.');
    }
  }

  const port = intIn('PORT', value('PORT'), 8080, 0, 65535);
  const statementTimeoutMs = intIn(
    'STATEMENT_TIMEOUT_MS',
    value('STATEMENT_TIMEOUT_MS'),
    15_000,
    100,
    3_600_000,
  );
  const host = value('HOST') ?? '127.0.0.1';
  return {
    port,
    host,
    dataDir,
    exportDir: path.resolve(value('EXPORT_DIR') ?? path.join(dataDir, 'exports')),
    appDbUrl,
    appStore:
      appDbKind === 'sqlite'
        ? { kind: 'sqlite', file: sqliteFile(appDbUrl) }
        : { kind: 'postgres', url: appDbUrl },
    databases: parseDatabases(value('DATABASES') ?? ''),
    admin: given.length === 3 ? (adminParts as AdminSetting) : null,
    smtpUrl,
    redisUrl,
    logLevel: logLevel.data,
    statementTimeoutMs,
    poolSize: intIn('POOL_SIZE', value('POOL_SIZE'), 10, 1, 200),
    httpTimeouts: httpTimeoutsOf(value, statementTimeoutMs),
    publicUrl:
      httpUrl('PUBLIC_URL', value('PUBLIC_URL')) ??
      `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    mailFrom: value('MAIL_FROM') ?? 'DBUI <no-reply@dbui.local>',
    contactTo: contactToOf(value('CONTACT_TO')),
    siteLinks: siteLinksOf(value),
    smsUrl: httpUrl('SMS_URL', value('SMS_URL')),
    smsFrom: value('SMS_FROM') ?? null,
    captchaCost: intIn('CAPTCHA_COST', value('CAPTCHA_COST'), 20_000, 1, 10_000_000),
    sessionIdleMinutes: intIn('SESSION_IDLE_MINUTES', value('SESSION_IDLE_MINUTES'), 30, 1, 24 * 60),
    sessionMaxHours: intIn('SESSION_MAX_HOURS', value('SESSION_MAX_HOURS'), 12, 1, 24 * 30),
    passwordMaxAgeDays: value('PASSWORD_MAX_AGE_DAYS')
      ? intIn('PASSWORD_MAX_AGE_DAYS', value('PASSWORD_MAX_AGE_DAYS'), 0, 1, 3650)
      : null,
    auditRetentionDays: intIn('AUDIT_RETENTION_DAYS', value('AUDIT_RETENTION_DAYS'), 365, 1, 36_500),
    trustProxy: trustProxyOf(value('TRUST_PROXY')),
    secretKey: secretKeyOf(value('SECRET_KEY')),
    metricsToken: metricsTokenOf(value('METRICS_TOKEN')),
    llm: llmOf(value),
    oauth: Object.fromEntries(
      oauthProviderNames.flatMap((provider) => {
        const prefix = `OAUTH_${provider.toUpperCase()}`;
        const clientId = value(`${prefix}_CLIENT_ID`);
        const clientSecret = value(`${prefix}_CLIENT_SECRET`);
        if (!clientId && !clientSecret) return [];
        if (!clientId || !clientSecret) {
          throw new ConfigError(
            `${prefix}_${clientId ? 'CLIENT_SECRET' : 'CLIENT_ID'}`,
            `set ${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET together.`,
          );
        }
        return [
          [
            provider,
            { clientId, clientSecret, issuer: httpUrl(`${prefix}_ISSUER`, value(`${prefix}_ISSUER`)) },
          ],
        ];
      }),
    ),
  };
}

/** METRICS_TOKEN: long random text (openssl rand -base64 32), or unset for metrics off. */
function metricsTokenOf(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  if (raw.length < 16 || /\s/.test(raw))
    throw new ConfigError(
      'METRICS_TOKEN',
      'must be at least 16 characters without spaces (openssl rand -base64 32).',
    );
  return raw;
}

/** LLM_BASE_URL, LLM_API_KEY and LLM_MODEL: all three or none (an unauthenticated local service takes any key). */
function llmOf(value: (name: string) => string | undefined): LlmSetting | null {
  const baseUrl = httpUrl('LLM_BASE_URL', value('LLM_BASE_URL'));
  const apiKey = value('LLM_API_KEY');
  const model = value('LLM_MODEL');
  if (!baseUrl && !apiKey && !model) return null;
  if (!baseUrl || !apiKey || !model) {
    const missing = !baseUrl ? 'LLM_BASE_URL' : !apiKey ? 'LLM_API_KEY' : 'LLM_MODEL';
    throw new ConfigError(missing, 'set LLM_BASE_URL, LLM_API_KEY and LLM_MODEL together.');
  }
  return { baseUrl, apiKey, model };
}

/** CONTACT_TO: one e-mail address (the team's), checked like an account's. */
function contactToOf(raw: string | undefined): string | null {
  return emailAddress('CONTACT_TO', raw);
}

/** One e-mail address, checked like an account's; null when unset. */
function emailAddress(variable: string, raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const checked = emailField.safeParse(raw);
  if (!checked.success) throw new ConfigError(variable, checked.error.issues[0]?.message ?? 'is not valid.');
  return checked.data;
}

/** The site's outside addresses: http(s) links and the support address, each null while unset. */
function siteLinksOf(value: (name: string) => string | undefined): SiteLinks {
  return {
    mastodon: httpUrl('MASTODON_URL', value('MASTODON_URL')),
    sourceCode: httpUrl('SOURCE_CODE_URL', value('SOURCE_CODE_URL')),
    shop: httpUrl('SHOP_URL', value('SHOP_URL')),
    supportEmail: emailAddress('SUPPORT_EMAIL', value('SUPPORT_EMAIL')),
  };
}
