import type { Migration } from 'kysely';
import * as initial from './0001-initial.ts';
import * as accounts from './0002-accounts.ts';
import * as exportJobs from './0003-exports.ts';
import * as passkeys from './0004-passkeys.ts';
import * as identities from './0005-identities.ts';
import * as audit from './0006-audit.ts';
import * as checksUnderWay from './0007-checks-under-way.ts';
import * as linkSegments from './0008-link-segments.ts';
import * as auditIntents from './0009-audit-intents.ts';
import * as contactMessages from './0010-contact-messages.ts';
import * as analyticsEvents from './0011-analytics-events.ts';
import * as chat from './0012-chat.ts';
import * as exportSessions from './0013-export-sessions.ts';
import * as analyticsCounts from './0014-analytics-counts.ts';
import * as savedViews from './0015-saved-views.ts';
import * as bulkChanges from './0016-bulk-changes.ts';
import * as imports from './0017-imports.ts';

/** Every migration in order. Forward-only: add a new numbered file, never edit a released one. */
export const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-accounts': accounts,
  '0003-exports': exportJobs,
  '0004-passkeys': passkeys,
  '0005-identities': identities,
  '0006-audit': audit,
  '0007-checks-under-way': checksUnderWay,
  '0008-link-segments': linkSegments,
  '0009-audit-intents': auditIntents,
  '0010-contact-messages': contactMessages,
  '0011-analytics-events': analyticsEvents,
  '0012-chat': chat,
  '0013-export-sessions': exportSessions,
  '0014-analytics-counts': analyticsCounts,
  '0015-saved-views': savedViews,
  '0016-bulk-changes': bulkChanges,
  '0017-imports': imports,
};
