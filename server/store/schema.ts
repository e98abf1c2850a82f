import type { ColumnType, Generated } from 'kysely';

/*
 * The app store's tables as Kysely sees them. Portable on SQLite and PostgreSQL: times are ISO-8601 UTC text
 * (sortable, no driver-specific Date handling), flags are integers 0/1 (docs/decisions/0003-app-store.md).
 */

type Id = Generated<number>;
/** ISO-8601 UTC text, e.g. 2026-11-21T10:00:00.000Z. */
export type Instant = string;
/** 0 or 1. */
export type Flag = number;

export interface UsersTable {
  id: Id;
  username: string;
  password_hash: string | null;
  is_admin: ColumnType<Flag, Flag | undefined, Flag>;
  email: string;
  email_verified_at: Instant | null;
  phone: string | null;
  phone_verified_at: Instant | null;
  totp_secret: string | null;
  totp_verified_at: Instant | null;
  preferred_2fa: string | null;
  first_name: string | null;
  last_name: string | null;
  password_changed_at: Instant | null;
  password_expired: ColumnType<Flag, Flag | undefined, Flag>;
  failed_logins: ColumnType<number, number | undefined, number>;
  locked_until: Instant | null;
  /** Passwords or codes of this account being checked right now (slots reserved before each check). */
  checks_under_way: ColumnType<number, number | undefined, number>;
  /** When the last of those slots was reserved; slots older than a minute are forgotten. */
  checks_started_at: Instant | null;
  /** An authenticator secret scanned but not yet confirmed by a code. */
  totp_pending_secret: string | null;
  /** The last TOTP time step accepted: each step works once (replay refused). */
  totp_last_step: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: Instant;
  updated_at: Instant;
}

export interface UserImagesTable {
  id: Id;
  user_id: number;
  image: string;
  file_name: string;
  file_type: string;
}

export interface RolesTable {
  id: Id;
  name: string;
  is_admin: ColumnType<Flag, Flag | undefined, Flag>;
  built_in: ColumnType<Flag, Flag | undefined, Flag>;
}

export interface RoleLinksTable {
  id: Id;
  role_id: number;
  link: string;
}

export interface RolePermissionsTable {
  id: Id;
  role_id: number;
  table_id: string;
  can_insert: Flag;
  can_update: Flag;
  can_delete: Flag;
}

export interface UserRolesTable {
  id: Id;
  user_id: number;
  role_id: number;
}

export interface SessionsTable {
  id: Id;
  user_id: number;
  token_hash: string;
  created_at: Instant;
  last_seen_at: Instant;
  expires_at: Instant;
  absolute_expires_at: Instant;
  revoked_at: Instant | null;
  /** The last proof of the password or a code: sign-in or POST /api/account/reauth. */
  reauthenticated_at: Instant | null;
  /** 1 when the sign-in came through forgot password: the password must be changed. */
  reset_password: ColumnType<Flag, Flag | undefined, Flag>;
  /** The second step the sign-in used. */
  method: string | null;
  address: string | null;
}

export interface OneTimeCodesTable {
  id: Id;
  user_id: number | null;
  purpose: string;
  channel: string | null;
  code_hash: string;
  created_at: Instant;
  expires_at: Instant;
  used_at: Instant | null;
  /** The sign-in a code belongs to (sign-in codes only). */
  attempt_id: number | null;
  /** The address being confirmed (email or phone setup). */
  target: string | null;
  /** Wrong guesses against this code. */
  failures: ColumnType<number, number | undefined, number>;
}

/** A password (or signup, or forgot password) accepted, waiting for its second step. */
export interface SignInAttemptsTable {
  id: Id;
  /** null for an unknown username: the key exists so the answer looks the same, and never verifies. */
  user_id: number | null;
  key_hash: string;
  /** sign-in, signup or reset. */
  purpose: string;
  /** The methods allowed when the attempt began, comma-separated. */
  allowed: string;
  created_at: Instant;
  expires_at: Instant;
  used_at: Instant | null;
  email_sent_at: Instant | null;
  phone_sent_at: Instant | null;
  address: string | null;
}

export interface RecoveryCodesTable {
  id: Id;
  user_id: number;
  code_hash: string;
  created_at: Instant;
  used_at: Instant | null;
}

/** Server secrets generated once and shared by every instance (the XSRF and captcha HMAC keys). */
export interface SettingsTable {
  name: string;
  value: string;
}

/** Human-check solutions already accepted, kept until they expire (each works once). */
export interface CaptchaClaimsTable {
  id: string;
  expires_at: Instant;
}

export interface ExportJobsTable {
  id: string;
  user_id: number;
  database_name: string;
  schema_name: string;
  table_name: string;
  format: string;
  request: string;
  status: string;
  rows_done: ColumnType<number, number | undefined, number>;
  rows_total: number | null;
  file_name: string | null;
  error: string | null;
  created_at: Instant;
  /** Also the heartbeat of a running job: refreshed every few seconds while it writes. */
  updated_at: Instant;
  finished_at: Instant | null;
  /** When the job began writing (throughput is measured from here). */
  started_at: Instant | null;
  /** 1 when rows_total is the engine's estimate or a capped count. */
  rows_total_is_estimate: ColumnType<Flag, Flag | undefined, Flag>;
  /** SHA-256 of the current single-use download token, and when it expires. */
  download_token_hash: string | null;
  download_token_expires_at: Instant | null;
  /** The session that started the job: status, cancel and download work only while it lives (null before 0013). */
  session_id: number | null;
}

export interface AuditLogTable {
  id: Id;
  at: Instant;
  user_id: number | null;
  action: string;
  target: string | null;
  detail: string | null;
  address: string | null;
  /** On a `data.undo` entry: the entry it undid (unique: a change is undone once). */
  undo_of: ColumnType<number | null, number | null | undefined, number | null>;
  /** 'done'; 'pending' while a data change's entry is an intent (written before the change commits); 'uncertain'
   * when its resolution could not tell whether the change happened (migration 0009). */
  state: ColumnType<AuditState, AuditState | undefined, AuditState>;
}

/** A bulk change's job (issue 38, migration 0016): its state, which the status call reads. */
export interface BulkJobsTable {
  id: string;
  user_id: number;
  database_name: string;
  schema_name: string;
  table_name: string;
  action: string;
  /** The request's filter, keys and set as JSON. */
  request: string;
  status: string;
  rows_done: ColumnType<number, number | undefined, number>;
  rows_total: number;
  /** 1 when rows_total is the capped count. */
  rows_total_capped: ColumnType<Flag, Flag | undefined, Flag>;
  audit_id: number | null;
  error: string | null;
  created_at: Instant;
  updated_at: Instant;
}

/** An import of a file into a table (issue 39, migration 0017): the file, how it is read, its last run's state. */
export interface ImportJobsTable {
  id: string;
  user_id: number;
  database_name: string;
  schema_name: string;
  table_name: string;
  /** The name the file was sent with (shown, never a path). */
  file_name: string;
  file_size: ColumnType<number, number, number>;
  /** How the file is read (ImportOptions) as JSON. */
  options: string;
  status: string;
  /** The last run's body (ImportRunBody) as JSON. */
  request: string | null;
  dry_run: Flag | null;
  percentage: ColumnType<number, number | undefined, number>;
  inserted: ColumnType<number, number | undefined, number>;
  updated: ColumnType<number, number | undefined, number>;
  skipped: ColumnType<number, number | undefined, number>;
  failed: ColumnType<number, number | undefined, number>;
  /** The first failures of the last run (ImportFailure[]) as JSON. */
  errors: string | null;
  audit_id: number | null;
  error: string | null;
  created_at: Instant;
  updated_at: Instant;
  ended_at: Instant | null;
}

/** One batch of rows of a bulk audit entry: each row's key, before and after as JSON (migration 0016). */
export interface AuditBulkBatchesTable {
  audit_id: number;
  batch: number;
  /** 'pending' from before the batch commits until it committed, then 'done'. */
  state: string;
  row_count: number;
  rows: string;
}

/** Where an audit entry stands (see AuditLogTable.state). */
export type AuditState = 'done' | 'pending' | 'uncertain';

/** A provider identity linked to an account (social sign-in): found by provider and subject, never by email. */
export interface UserIdentitiesTable {
  id: Id;
  user_id: number;
  /** google, microsoft or facebook. */
  provider: string;
  /** The provider's stable id of the person (OpenID Connect `sub`, Facebook's app-scoped id). */
  subject: string;
  /** The email the provider last gave (informational only). */
  email: string | null;
  created_at: Instant;
  last_used_at: Instant | null;
}

/** One social sign-in or link in flight: the checks of its authorization request, ten minutes, used once. */
export interface OAuthTransactionsTable {
  id: Id;
  /** SHA-256 of the state parameter (the browser holds the state in a cookie too). */
  state_hash: string;
  provider: string;
  /** sign-in or link. */
  mode: string;
  /** The account to link to (link only). */
  user_id: number | null;
  /** The OpenID Connect nonce (null for plain OAuth 2). */
  nonce: string | null;
  /** The PKCE code verifier. */
  code_verifier: string;
  /** Where the web app goes after sign-in (a path on this site). */
  return_to: string | null;
  created_at: Instant;
  expires_at: Instant;
  used_at: Instant | null;
}

/** A WebAuthn credential (passkey) of an account. */
export interface PasskeysTable {
  id: Id;
  user_id: number;
  /** The credential id as base64url (unique across accounts). */
  credential_id: string;
  /** The COSE public key as base64url. */
  public_key: string;
  /** The authenticator's signature counter (bigint: PostgreSQL answers it as text). */
  counter: ColumnType<number | string, number | undefined, number>;
  /** JSON array of transports (internal, usb, hybrid, …), or null. */
  transports: string | null;
  name: string;
  created_at: Instant;
  last_used_at: Instant | null;
  /** 1 when the authenticator says the credential is backed up (synced). */
  backed_up: ColumnType<Flag, Flag | undefined, Flag>;
  /** singleDevice or multiDevice. */
  device_type: string;
}

export interface ContactMessagesTable {
  id: Id;
  user_id: number | null;
  from_email: string;
  from_name: string | null;
  subject: string;
  message: string;
  created_at: Instant;
  /** 'not-configured' (no CONTACT_TO), 'sent' or 'failed' (mail_error says why). */
  mail_status: string;
  mail_error: string | null;
  answer: string | null;
  answered_at: Instant | null;
  answered_by: number | null;
  archived_at: Instant | null;
}

/** Page views counted per UTC day and page (decision 0043): each visitor once per page a day. */
export interface AnalyticsPageViewsTable {
  /** YYYY-MM-DD (UTC). */
  day: string;
  /** The page's path without query or fragment, a fixed page in its own spelling, or ANALYTICS_OTHER_PAGES. */
  path: string;
  views: number;
}

/** Consent choices counted per UTC day: each visitor's first choice of a day. */
export interface AnalyticsConsentsTable {
  day: string;
  /** 'accepted' or 'rejected'. */
  choice: string;
  choices: number;
}

/** The UTC day being counted: its key and how much of the day's limits is used. Deleted when the day ends. */
export interface AnalyticsDaysTable {
  day: string;
  /** The day's random key for the visitors' keyed hashes, sealed (secret box); never kept past the day. */
  day_key: string;
  /** Pages other than the site's fixed ones given a row of their own today. */
  new_paths: ColumnType<number, number | undefined, number>;
  /** Rows of analytics_seen today (the global ceiling). */
  seen: ColumnType<number, number | undefined, number>;
}

/** What was counted today, as keyed hashes of the visitor's address and what they were counted for (a page, the
 * consent choice, or themselves with the number of pages counted for them). Deleted when the day ends. */
export interface AnalyticsSeenTable {
  day: string;
  mark: string;
  /** For a visitor's own mark: the pages counted for them today; 0 otherwise. */
  pages: ColumnType<number, number | undefined, number>;
}

export interface ChatSessionsTable {
  id: Id;
  /** The id the API shows (a UUID); the numeric id never leaves the server. */
  public_id: string;
  /** SHA-256 (hex) of the secret in the browser's HttpOnly chat cookie: only that browser may continue. */
  owner_hash: string;
  user_id: number | null;
  created_at: Instant;
  last_at: Instant;
  visitor_messages: number;
}

export interface ChatMessagesTable {
  id: Id;
  session_id: number;
  /** 'user' or 'assistant'. */
  role: string;
  /** 'visitor', 'introduction', 'built-in', 'model' or 'limit' (common/contract/chat.ts chatOrigin). */
  origin: string;
  text: string;
  /** JSON list of {title, path}: the pages the reply was drawn from ([] when none). */
  sources: string;
  created_at: Instant;
}

/** A saved view of a browsed table (issue 36, migration 0015): one owner's named definition and who may open it. */
export interface SavedViewsTable {
  id: Id;
  database_name: string;
  schema_name: string;
  table_name: string;
  /** The author (owner); the view goes when the account does. */
  user_id: number;
  name: string;
  /** JSON of { columns, orderBy, where, pageSize } as the author saved it (store/views.ts ViewDefinition). */
  definition: string;
  /** 'private', 'everyone' or 'roles' (the roles in saved_view_roles). */
  sharing: string;
  created_at: Instant;
  updated_at: Instant;
}

/** The roles a view shared 'roles' is shared with; a role's deletion takes its rows with it. */
export interface SavedViewRolesTable {
  view_id: number;
  role_id: number;
}

export interface AppDatabase {
  users: UsersTable;
  user_images: UserImagesTable;
  roles: RolesTable;
  role_links: RoleLinksTable;
  role_permissions: RolePermissionsTable;
  user_roles: UserRolesTable;
  sessions: SessionsTable;
  one_time_codes: OneTimeCodesTable;
  export_jobs: ExportJobsTable;
  audit_log: AuditLogTable;
  bulk_jobs: BulkJobsTable;
  import_jobs: ImportJobsTable;
  audit_bulk_batches: AuditBulkBatchesTable;
  sign_in_attempts: SignInAttemptsTable;
  recovery_codes: RecoveryCodesTable;
  settings: SettingsTable;
  captcha_claims: CaptchaClaimsTable;
  passkeys: PasskeysTable;
  user_identities: UserIdentitiesTable;
  oauth_transactions: OAuthTransactionsTable;
  contact_messages: ContactMessagesTable;
  analytics_page_views: AnalyticsPageViewsTable;
  analytics_consents: AnalyticsConsentsTable;
  analytics_days: AnalyticsDaysTable;
  analytics_seen: AnalyticsSeenTable;
  chat_sessions: ChatSessionsTable;
  chat_messages: ChatMessagesTable;
  saved_views: SavedViewsTable;
  saved_view_roles: SavedViewRolesTable;
}
