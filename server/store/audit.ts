import type { Kysely, Transaction } from 'kysely';
import type { AppDatabase } from './schema.ts';

/** One entry of the audit trail. */
export interface AuditEntry {
  userId: number | null;
  action: string;
  target?: string | null;
  detail?: Record<string, unknown> | null;
  address?: string | null;
}

/** Appends an entry to the audit trail. */
export async function writeAudit(
  db: Kysely<AppDatabase> | Transaction<AppDatabase>,
  entry: AuditEntry,
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      at: new Date().toISOString(),
      user_id: entry.userId,
      action: entry.action,
      target: entry.target ?? null,
      detail: entry.detail ? JSON.stringify(entry.detail) : null,
      address: entry.address ?? null,
    })
    .execute();
}
