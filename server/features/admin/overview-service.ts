import type { FastifyBaseLogger } from 'fastify';
import type { ExpressionBuilder } from 'kysely';
import type { AdminOverview, AuditEntryView } from '#common/contract/admin.ts';
import type { DatabaseRegistry } from '#server/engines/database-registry.ts';
import { checkHealth } from '#server/features/health/service.ts';
import type { AppStore } from '#server/store/app-store.ts';
import { undosOf, type StoredAuditEntry } from '#server/store/audit.ts';
import type { AppDatabase } from '#server/store/schema.ts';
import { countAdministrators } from '#server/store/users.ts';
import { auditEntryView } from '#server/features/audit/audit-service.ts';

/*
 * GET /api/admin/overview (/admin/home): counts of users, administrators, locked users, live sessions and roles; the
 * health of the app store and every database (health/service.ts, the same check as GET /api/health); the last 24
 * hours' failed checks, lockouts and data changes; the newest 10 of the first two together and of the changes.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const RECENT = 10;

type AuditWhere = (eb: ExpressionBuilder<AppDatabase, 'audit_log'>) => ReturnType<typeof eb.or>;

/** Failed password, code and passkey checks (`sign-in.password-failed`, `…code-failed`, `…passkey-failed`), failed
 * re-authentications, and sign-ins refused because the account was locked. */
const failures: AuditWhere = (eb) =>
  eb.or([
    eb('audit_log.action', 'like', 'sign-in.%-failed'),
    eb('audit_log.action', 'in', ['reauth.failed', 'sign-in.refused-locked']),
  ]);
const lockouts: AuditWhere = (eb) => eb.or([eb('audit_log.action', '=', 'account.locked')]);
/** Data changes of the data API: insert, update, delete and undo. */
const changes: AuditWhere = (eb) => eb.or([eb('audit_log.action', 'like', 'data.%')]);

const count = (n: { n: number | string } | undefined) => Number(n?.n ?? 0);

/** The overview at `now` (the app's clock). */
export async function adminOverview(
  store: AppStore,
  databases: DatabaseRegistry,
  log: FastifyBaseLogger,
  now: Date,
): Promise<AdminOverview> {
  const at = now.toISOString();
  const since = new Date(now.getTime() - DAY_MS).toISOString();
  const { db } = store;
  const users = () => db.selectFrom('users').select((eb) => eb.fn.countAll<number | string>().as('n'));
  const audited = (where: AuditWhere) =>
    db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('audit_log.at', '>=', since)
      .where(where)
      .executeTakeFirst();
  const newest = (where: AuditWhere): Promise<StoredAuditEntry[]> =>
    db
      .selectFrom('audit_log')
      .leftJoin('users', 'users.id', 'audit_log.user_id')
      .select([
        'audit_log.id',
        'audit_log.at',
        'audit_log.user_id',
        'users.username',
        'audit_log.action',
        'audit_log.target',
        'audit_log.detail',
        'audit_log.address',
        'audit_log.undo_of',
        'audit_log.state',
      ])
      .where(where)
      .orderBy('audit_log.at', 'desc')
      .orderBy('audit_log.id', 'desc')
      .limit(RECENT)
      .execute();

  const [
    userCount,
    administrators,
    lockedUsers,
    activeSessions,
    roles,
    health,
    signInFailures24h,
    lockouts24h,
    changes24h,
    recentFailures,
    recentChanges,
  ] = await Promise.all([
    users().executeTakeFirst(),
    countAdministrators(db),
    users().where('locked_until', '>', at).executeTakeFirst(),
    db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', at)
      .where('absolute_expires_at', '>', at)
      .executeTakeFirst(),
    db
      .selectFrom('roles')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirst(),
    checkHealth(store, databases, log, now),
    audited(failures),
    audited(lockouts),
    audited(changes),
    newest((eb) => eb.or([failures(eb), lockouts(eb)])),
    newest(changes),
  ]);
  const undoneBy = await undosOf(
    db,
    recentChanges.map((e) => e.id),
  );
  const view = (entries: StoredAuditEntry[]): AuditEntryView[] =>
    entries.map((e) => auditEntryView(e, undoneBy.get(e.id) ?? null));
  return {
    users: count(userCount),
    administrators,
    lockedUsers: count(lockedUsers),
    activeSessions: count(activeSessions),
    roles: count(roles),
    health,
    signInFailures24h: count(signInFailures24h),
    lockouts24h: count(lockouts24h),
    changes24h: count(changes24h),
    recentFailures: view(recentFailures),
    recentChanges: view(recentChanges),
  };
}
