import { oauthProviderNames } from './config.ts';

/**
 * Every environment variable server/config.ts reads, with its default as text and whether it holds a secret. The
 * list behind `.env.example`, the `*_FILE` variants (config-sources.ts) and `dbui config check`; a test holds it,
 * `.env.example` and what loadConfig reads together (config-sources.test.ts), so a new variable needs its line here
 * and there in the same change (decision 0057).
 */
export interface ConfigVariable {
  name: string;
  /** The value loadConfig uses while the variable is unset, exactly as it would be written (setting it changes
   * nothing: the test checks); null when there is none, or it is worked out from other variables (`note`). */
  default: string | null;
  /** What an unset variable means when that is not a literal default ("$DATA_DIR/exports", "the key file"). */
  note?: string;
  /** A password, token, key or URL with credentials: may be given as NAME_FILE, and `dbui config check` masks it. */
  secret?: true;
}

const oauthVariables: ConfigVariable[] = oauthProviderNames.flatMap((provider) => {
  const prefix = `OAUTH_${provider.toUpperCase()}`;
  return [
    { name: `${prefix}_CLIENT_ID`, default: null },
    { name: `${prefix}_CLIENT_SECRET`, default: null, secret: true },
    { name: `${prefix}_ISSUER`, default: null, note: "the provider's usual issuer" },
  ];
});

export const configVariables: readonly ConfigVariable[] = [
  { name: 'PORT', default: '8080' },
  { name: 'HOST', default: '127.0.0.1' },
  { name: 'DATA_DIR', default: './data' },
  { name: 'EXPORT_DIR', default: null, note: '$DATA_DIR/exports' },
  { name: 'IMPORT_MAX_BYTES', default: '2147483648' },
  { name: 'APP_DB_URL', default: null, note: 'sqlite:$DATA_DIR/app.db', secret: true },
  { name: 'DATABASES', default: null, note: 'the embedded demo database', secret: true },
  { name: 'ADMIN_USERNAME', default: null, note: 'the first start prints a setup link' },
  { name: 'ADMIN_PASSWORD', default: null, secret: true },
  { name: 'ADMIN_EMAIL', default: null },
  { name: 'SMTP_URL', default: null, note: 'mail goes to $DATA_DIR/outbox/', secret: true },
  { name: 'MAIL_FROM', default: 'DBUI <no-reply@dbui.local>' },
  { name: 'CONTACT_TO', default: null, note: 'messages are only kept for Admin > Messages' },
  { name: 'REDIS_URL', default: null, note: 'in-process', secret: true },
  { name: 'LOG_LEVEL', default: 'info' },
  { name: 'STATEMENT_TIMEOUT_MS', default: '15000' },
  { name: 'SCAN_TIMEOUT_MS', default: '5000' },
  { name: 'SCAN_TIMEOUTS', default: null, note: 'none: every database scans within SCAN_TIMEOUT_MS' },
  { name: 'POOL_SIZE', default: '10' },
  { name: 'HEADERS_TIMEOUT_MS', default: '10000' },
  { name: 'REQUEST_TIMEOUT_MS', default: '30000' },
  { name: 'KEEP_ALIVE_TIMEOUT_MS', default: '5000' },
  { name: 'IDLE_TIMEOUT_MS', default: null, note: 'STATEMENT_TIMEOUT_MS + 60000, at least 120000' },
  { name: 'PUBLIC_URL', default: null, note: 'http://HOST:PORT' },
  { name: 'SOURCE_CODE_URL', default: null, note: 'hidden' },
  { name: 'MASTODON_URL', default: null, note: 'hidden' },
  { name: 'SHOP_URL', default: null, note: 'hidden' },
  { name: 'SUPPORT_EMAIL', default: null, note: 'Titan points to Contact Us' },
  { name: 'SMS_URL', default: null, note: 'SMS go to $DATA_DIR/outbox/', secret: true },
  { name: 'SMS_FROM', default: null },
  { name: 'CAPTCHA_COST', default: '20000' },
  { name: 'SESSION_IDLE_MINUTES', default: '30' },
  { name: 'SESSION_MAX_HOURS', default: '12' },
  { name: 'PASSWORD_MAX_AGE_DAYS', default: null, note: 'never' },
  { name: 'AUDIT_RETENTION_DAYS', default: '365' },
  { name: 'TRUST_PROXY', default: 'false' },
  { name: 'SECRET_KEY', default: null, note: 'a random key in $DATA_DIR/secret.key', secret: true },
  { name: 'METRICS_TOKEN', default: null, note: 'metrics off', secret: true },
  { name: 'LLM_BASE_URL', default: null, note: "Titan answers from the site's pages alone" },
  { name: 'LLM_API_KEY', default: null, secret: true },
  { name: 'LLM_MODEL', default: null },
  ...oauthVariables,
  { name: 'OIDC_ISSUER', default: null, note: 'no OpenID Connect sign-in' },
  { name: 'OIDC_CLIENT_ID', default: null },
  { name: 'OIDC_CLIENT_SECRET', default: null, secret: true },
  // Refused without the three above, so their defaults are notes: setting one alone is an error, not a no-op.
  { name: 'OIDC_LABEL', default: null, note: 'Single sign-on' },
  { name: 'OIDC_SCOPES', default: null, note: 'openid email profile' },
];

/** The variables that hold a secret: each may be given as NAME_FILE instead. */
export const secretVariables: ReadonlySet<string> = new Set(
  configVariables.filter((variable) => variable.secret).map((variable) => variable.name),
);
