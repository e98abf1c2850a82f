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
  updated_at: Instant;
  finished_at: Instant | null;
}

export interface AuditLogTable {
  id: Id;
  at: Instant;
  user_id: number | null;
  action: string;
  target: string | null;
  detail: string | null;
  address: string | null;
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
}
