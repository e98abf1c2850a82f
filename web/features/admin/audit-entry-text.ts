import { tableOfId } from '#common/links.ts';

/*
 * An audit entry (common/contract/admin.ts auditEntry) in words: what its action did, what it touched, when. Shared
 * by the audit trail, the admin start page and a user's page (audit-entry-summary.tsx).
 */

/** The actions the server writes, grouped as the audit filter offers them, each with the words people read. */
export const auditActionGroups = [
  {
    group: 'Data changes',
    actions: {
      'data.update': 'Row changed',
      'data.insert': 'Row added',
      'data.delete': 'Row deleted',
      'data.undo': 'Change undone',
      'data.bulk': 'Bulk change',
      'admin.data.insert': 'App store row added',
      'admin.data.update': 'App store row changed',
      'admin.data.delete': 'App store row deleted',
      'view.created': 'Saved view added',
      'view.updated': 'Saved view changed',
      'view.deleted': 'Saved view deleted',
      'export.start': 'Export started',
      'export.download': 'Export downloaded',
    },
  },
  {
    group: 'Sign-in',
    actions: {
      'sign-in': 'Signed in',
      'sign-in.password-failed': 'Wrong password',
      'sign-in.code-failed': 'Wrong code',
      'sign-in.passkey-failed': 'Passkey not accepted',
      'sign-in.refused-locked': 'Sign-in refused: locked',
      'sign-in.password-reset': 'Signed in to reset the password',
      'recovery-code.used': 'Recovery code used',
      'sign-in.link-failed': 'Second-step link refused',
      '2fa.reset-link-used': 'Second-step link used',
      'social.sign-in': 'Signed in with a provider',
      'social.failed': 'Provider sign-in failed',
      reauth: 'Password confirmed again',
      'reauth.failed': 'Wrong password on confirming',
      'session.ended-by-lockout': 'Session ended by a lock',
      'sign-out': 'Signed out',
    },
  },
  {
    group: 'Account',
    actions: {
      'account.created': 'Account created',
      'account.updated': 'Profile changed',
      'account.deleted': 'Account deleted',
      'account.locked': 'Account locked',
      'account.sessions-ended': 'Sessions ended',
      'password.changed': 'Password changed',
      'password.reset-requested': 'Password reset asked for',
      'password.reset-email-confirmed': 'Password reset email confirmed',
      '2fa.email-verified': 'Email code set up',
      '2fa.phone-verified': 'Phone set up',
      '2fa.totp-verified': 'Authenticator app set up',
      '2fa.preferred': 'Preferred second factor changed',
      'passkey.added': 'Passkey added',
      'passkey.removed': 'Passkey removed',
      'recovery-codes.issued': 'Recovery codes issued',
      'social.linked': 'Provider linked',
      'social.unlinked': 'Provider unlinked',
      'social.account-created': 'Account created by a provider',
    },
  },
  {
    group: 'Administration',
    actions: {
      'admin.role.created': 'Role added',
      'admin.role.updated': 'Role changed',
      'admin.role.deleted': 'Role deleted',
      'admin.user.roles': 'User roles changed',
      'admin.user.locked': 'User locked',
      'admin.user.unlocked': 'User unlocked',
      'admin.user.2fa-reset': 'Second factors reset',
      '2fa.reset-link-issued': 'Second-step link issued',
      'admin.user.password-set': 'Password set by an administrator',
      'admin.user.sessions-ended': 'User sessions ended',
      'setup.admin-from-environment': 'Administrator set up from the environment',
      'setup.admin-from-link': 'Administrator set up by the setup link',
      'setup.admin-from-command-line': 'Administrator created on the command line',
      'access.denied': 'Access refused',
    },
  },
] as const satisfies readonly { group: string; actions: Record<string, string> }[];

const labels: ReadonlyMap<string, string> = new Map(
  auditActionGroups.flatMap(({ actions }) => Object.entries(actions)),
);

/** The words for an action (data.update → "Row changed"); an action this list does not know, as it is. */
export function auditActionLabel(action: string): string {
  return labels.get(action) ?? action;
}

/** The data changes the audit trail can undo: the server's list (server/features/audit/undo-service.ts changeOf;
 * an undo, data.undo, is not undone in turn). Restore is the undo of a delete. */
export function undoKind(action: string): 'undo' | 'restore' | null {
  return action === 'data.update' || action === 'data.insert'
    ? 'undo'
    : action === 'data.delete'
      ? 'restore'
      : null;
}

/** The TableId of a data change's target (/db/{db}/{schema}/{table}), or null for other targets. */
export function auditTargetTableId(target: string | null): string | null {
  if (!target?.startsWith('/db/')) return null;
  const id = target.slice('/db/'.length);
  return tableOfId(id) ? id : null;
}

/** A target in words: /db/{db}/{schema}/{table} as db.schema.table (names decoded), user:N as "user N", audit:N
 * as "entry #N"; others as they are, none as an empty text. */
export function auditTargetLabel(target: string | null): string {
  if (target === null) return '';
  const tableId = auditTargetTableId(target);
  const table = tableId === null ? null : tableOfId(tableId);
  if (table) return `${table.database}.${table.schema}.${table.table}`;
  const app = /^\/admin\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(target);
  if (app) return `${app[1]}.${app[2]}.${app[3]}`;
  const user = /^user:(\d+)$/.exec(target);
  if (user) return `user ${user[1]}`;
  const entry = /^audit:(\d+)$/.exec(target);
  if (entry) return `entry #${entry[1]}`;
  return target;
}

const shortFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** An instant in a short local form (24 Nov 2026, 14:05:09); text that is no instant, as it is. */
export function auditTimeLabel(at: string): string {
  const instant = new Date(at);
  return Number.isNaN(instant.getTime()) ? at : shortFormat.format(instant);
}
