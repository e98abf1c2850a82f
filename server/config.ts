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
  /** IMPORT_MAX_BYTES: the largest file an import may upload (default 2 GiB); a bigger one is refused with 413. */
  importMaxBytes: number;
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
  /** SCAN_TIMEOUT_MS: how long a filter that no index serves may run (ms; decision 0061), at most
   * statementTimeoutMs; SCAN_TIMEOUTS gives a database its own (`scanTimeoutOf`). */
  scanTimeoutMs: number;
  /** SCAN_TIMEOUTS: name=ms,… for the databases whose scans may run longer (or shorter) than SCAN_TIMEOUT_MS. */
  scanTimeoutsMs: Record<string, number>;
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
  /** OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET (a secret), OIDC_LABEL, OIDC_SCOPES: sign-in with any OpenID
   * Connect provider (Keycloak, Authentik, Okta, Entra ID, Google Workspace), beside the named ones; null: unset. */
  oidc: OidcSetting | null;
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

/** The generic OpenID Connect provider (docs/decisions/0060-generic-openid-connect.md). */
export interface OidcSetting {
  /** Exactly as the provider names itself in its discovery document (a trailing slash is kept: Authentik has one). */
  issuer: string;
  clientId: string;
  /** A secret: never logged. */
  clientSecret: string;
  /** What people call the service, on the button ("Continue with …") and in messages; default "Single sign-on". */
  label: string;
  /** Space-separated, openid among them; default "openid email profile". */
  scope: string;
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

/** PUBLIC_URL unset: the address this machine's own browser reaches DBUI at. A wildcard HOST (0.0.0.0, ::, as in a
 * container) is no address a browser can use, nor a WebAuthn origin: localhost stands in for it. */
export function defaultPublicUrl(host: string, port: number): string {
  const name = ['0.0.0.0', '::', '[::]'].includes(host) ? 'localhost' : host;
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}`;
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
  const databases = parseDatabases(value('DATABASES') ?? '');
  const scanTimeoutMs = scanTimeoutIn('SCAN_TIMEOUT_MS', value('SCAN_TIMEOUT_MS'), statementTimeoutMs);
  return {
    port,
    host,
    dataDir,
    exportDir: path.resolve(value('EXPORT_DIR') ?? path.join(dataDir, 'exports')),
    importMaxBytes: intIn('IMPORT_MAX_BYTES', value('IMPORT_MAX_BYTES'), 2 ** 31, 1, 2 ** 50),
    appDbUrl,
    appStore:
      appDbKind === 'sqlite'
        ? { kind: 'sqlite', file: sqliteFile(appDbUrl) }
        : { kind: 'postgres', url: appDbUrl },
    databases,
    admin: given.length === 3 ? (adminParts as AdminSetting) : null,
    smtpUrl,
    redisUrl,
    logLevel: logLevel.data,
    statementTimeoutMs,
    scanTimeoutMs,
    scanTimeoutsMs: scanTimeoutsOf(value('SCAN_TIMEOUTS'), databases, statementTimeoutMs),
    poolSize: intIn('POOL_SIZE', value('POOL_SIZE'), 10, 1, 200),
    httpTimeouts: httpTimeoutsOf(value, statementTimeoutMs),
    publicUrl: httpUrl('PUBLIC_URL', value('PUBLIC_URL')) ?? defaultPublicUrl(host, port),
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
    oidc: oidcOf(value),
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

const OIDC_DEFAULT_LABEL = 'Single sign-on';
const OIDC_DEFAULT_SCOPE = 'openid email profile';
/** RFC 6749 §3.3: a scope token is printable ASCII without space, " and \. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together (or none); OIDC_LABEL and OIDC_SCOPES optional, and
 * refused without the three. The issuer is kept as given, trailing slash included, since discovery compares it
 * exactly with the one the provider names.
 */
function oidcOf(value: (name: string) => string | undefined): OidcSetting | null {
  const issuerRaw = value('OIDC_ISSUER');
  const clientId = value('OIDC_CLIENT_ID');
  const clientSecret = value('OIDC_CLIENT_SECRET');
  const label = value('OIDC_LABEL');
  const scopes = value('OIDC_SCOPES');
  const together = 'set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together, or none of them.';
  if (!issuerRaw && !clientId && !clientSecret) {
    const stray = label ? 'OIDC_LABEL' : scopes ? 'OIDC_SCOPES' : null;
    if (stray)
      throw new ConfigError(
        stray,
        'is set, but sign-in with an OpenID Connect provider needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET.',
      );
    return null;
  }
  if (!issuerRaw) throw new ConfigError('OIDC_ISSUER', together);
  if (!clientId) throw new ConfigError('OIDC_CLIENT_ID', together);
  if (!clientSecret) throw new ConfigError('OIDC_CLIENT_SECRET', together);
  return {
    issuer: oidcIssuerOf(issuerRaw),
    clientId,
    clientSecret,
    label: oidcLabelOf(label),
    scope: oidcScopeOf(scopes),
  };
}

/** An http(s) URL without query, fragment or credentials, and not the discovery document's own address. */
function oidcIssuerOf(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(
      'OIDC_ISSUER',
      `"${redact(raw)}" is not a URL (for example https://sso.example.com/realms/staff).`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ConfigError('OIDC_ISSUER', `"${redact(raw)}" must be an https:// URL.`);
  if (url.pathname.includes('/.well-known/'))
    throw new ConfigError(
      'OIDC_ISSUER',
      'give the issuer itself, without /.well-known/openid-configuration (DBUI adds it).',
    );
  if (url.search || url.hash || url.username || url.password)
    throw new ConfigError(
      'OIDC_ISSUER',
      `"${redact(raw)}" must not carry a query, a fragment or credentials.`,
    );
  return raw;
}

function oidcLabelOf(raw: string | undefined): string {
  if (raw === undefined) return OIDC_DEFAULT_LABEL;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (raw.length > 40 || /[\u0000-\u001f\u007f]/.test(raw))
    throw new ConfigError(
      'OIDC_LABEL',
      'must be at most 40 characters of plain text (for example Acme account).',
    );
  return raw;
}

function oidcScopeOf(raw: string | undefined): string {
  if (raw === undefined) return OIDC_DEFAULT_SCOPE;
  const tokens = [...new Set(raw.split(/[\s,]+/).filter(Boolean))];
  const bad = tokens.find((token) => !SCOPE_TOKEN.test(token));
  if (bad !== undefined) throw new ConfigError('OIDC_SCOPES', `"${bad}" is not a scope name.`);
  if (!tokens.includes('openid'))
    throw new ConfigError('OIDC_SCOPES', 'must include openid (for example openid email profile).');
  return tokens.join(' ');
}

/**
 * SCAN_TIMEOUTS: `name=ms,name=ms`, a scan budget of its own for some registered databases (an archive whose readers
 * may wait longer), each from 100 ms to STATEMENT_TIMEOUT_MS, which also ends a scan.
 */
function scanTimeoutsOf(
  raw: string | undefined,
  databases: DatabaseSetting[],
  statementTimeoutMs: number,
): Record<string, number> {
  const timeouts: Record<string, number> = {};
  for (const entry of (raw ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [name = '', ms, ...rest] = entry.split('=').map((part) => part.trim());
    if (ms === undefined || rest.length > 0 || !name)
      throw new ConfigError(
        'SCAN_TIMEOUTS',
        `"${entry}" is not name=milliseconds (for example archive=30000).`,
      );
    if (!databases.some((d) => d.name === name))
      throw new ConfigError('SCAN_TIMEOUTS', `"${name}" is not a database of DATABASES.`);
    timeouts[name] = scanTimeoutIn('SCAN_TIMEOUTS', ms, statementTimeoutMs);
  }
  return timeouts;
}

/** A scan budget in ms: 5,000 unless given, never longer than STATEMENT_TIMEOUT_MS (which ends any statement). */
function scanTimeoutIn(variable: string, raw: string | undefined, statementTimeoutMs: number): number {
  const ms = intIn(variable, raw, Math.min(5_000, statementTimeoutMs), 100, 3_600_000);
  if (ms > statementTimeoutMs)
    throw new ConfigError(
      variable,
      `${ms} must not be longer than STATEMENT_TIMEOUT_MS (${statementTimeoutMs}), which ends every statement.`,
    );
  return ms;
}

/** The scan budget of a registered database: its SCAN_TIMEOUTS entry, else SCAN_TIMEOUT_MS. */
export const scanTimeoutOf = (
  config: Pick<Config, 'scanTimeoutMs' | 'scanTimeoutsMs'>,
  name: string,
): number => config.scanTimeoutsMs[name] ?? config.scanTimeoutMs;

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
