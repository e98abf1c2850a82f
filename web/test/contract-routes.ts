import { z, type ZodType } from 'zod';
import { references } from '#common/contract/relations.ts';
import { bulkCountChanged, bulkPreview, bulkStarted, bulkStatus } from '#common/contract/bulk.ts';
import {
  accountRole,
  methodVerified,
  preSignIn,
  preSignInToken,
  recoveryCodes,
  totpSetup,
  user,
  verification,
  verifyAnswer,
} from '#common/contract/account.ts';
import {
  adminOverview,
  adminTables,
  adminUserDetail,
  appRow,
  auditRows,
  pagedAudit,
  pagedRoles,
  pagedUsers,
  role,
} from '#common/contract/admin.ts';
import { analyticsReport } from '#common/contract/analytics.ts';
import { chatReply, chatSession, chatTranscript, pagedChats } from '#common/contract/chat.ts';
import { contactMessage, contactResult, pagedContactMessages } from '#common/contract/contact.ts';
import { exportStarted, exportStatus } from '#common/contract/exports.ts';
import { importPreview, importStarted, importStatus } from '#common/contract/imports.ts';
import { filterPlan } from '#common/contract/filter.ts';
import { aliveResponse, healthResponse, readyResponse } from '#common/contract/health.ts';
import {
  passkeyLoginOptions,
  passkeyRegistrationOptions,
  passkeySummary,
} from '#common/contract/passkeys.ts';
import { setupStatus } from '#common/contract/setup.ts';
import { socialLinkStart, socialProviders } from '#common/contract/social.ts';
import {
  answeredRow,
  databaseSummary,
  foreignKeyChoices,
  pageResult,
  row,
  rowConflict,
  rowHistory,
  tableListItem,
  undoResult,
} from '#common/contract/sql.ts';
import { savedView, viewList } from '#common/contract/views.ts';
import type { HttpMethod } from '#web/api/client.ts';

/**
 * A route of the API as the server declares it: what its envelope's data is on success, under which status, and the
 * failures whose envelope carries data (the rest carry null). `data: null` is a route that answers no envelope (a
 * file, a redirect, the human check's challenge): the fake API serves only raw answers for it, unchecked.
 */
export interface ContractRoute {
  method: HttpMethod;
  /** Fastify's pattern: `:name` is one path segment. */
  path: string;
  data: ZodType | null;
  successStatus: number;
  failures: Partial<Record<number, ZodType>>;
}

function route(
  method: HttpMethod,
  path: string,
  data: ZodType | null,
  extra: { successStatus?: number; failures?: Partial<Record<number, ZodType>> } = {},
): ContractRoute {
  return { method, path, data, successStatus: extra.successStatus ?? 200, failures: extra.failures ?? {} };
}

/**
 * Every route the server registers (server/features/…/routes.ts), with the common/contract schema its response
 * declares. The web tests' fake API (web/test/fake-api.ts) checks each canned answer against it, so a test cannot
 * pass on an answer the server would never give. A new route of the server gets its line here:
 * scripts/contract-routes.test.ts builds the real app and fails on a server route without its line or a line without
 * its route.
 */
export const contractRoutes: readonly ContractRoute[] = [
  // Database data (spec 000 §7).
  route('GET', '/api/sql', z.array(databaseSummary)),
  route('GET', '/api/sql/:db', z.array(tableListItem)),
  route('GET', '/api/sql/:db/:schema/:table', z.array(answeredRow)),
  route(
    'GET',
    '/api/sql/:db/:schema/:table/foreignkeys',
    z.union([z.array(foreignKeyChoices), foreignKeyChoices]),
  ),
  route('POST', '/api/sql/:db/:schema/:table/search', pageResult),
  route('GET', '/api/sql/:db/:schema/:table/page/:page', pageResult),
  route('POST', '/api/sql/:db/:schema/:table/page/:page/search', pageResult),
  route('POST', '/api/sql/:db/:schema/:table/query', pageResult),
  route('POST', '/api/sql/:db/:schema/:table/query/plan', filterPlan),
  route('POST', '/api/sql/:db/:schema/:table', answeredRow, { failures: { 409: rowConflict } }),
  route('POST', '/api/sql/:db/:schema/:table/delete', row, { failures: { 409: rowConflict } }),
  route('POST', '/api/sql/:db/:schema/:table/history', rowHistory),
  route('POST', '/api/sql/:db/:schema/:table/references', references),
  route('POST', '/api/sql/:db/:schema/:table/history/:id/undo', undoResult),
  // Bulk changes (issue 38).
  route('POST', '/api/sql/:db/:schema/:table/bulk/preview', bulkPreview),
  route('POST', '/api/sql/:db/:schema/:table/bulk', bulkStarted, {
    successStatus: 202,
    failures: { 409: bulkCountChanged },
  }),
  route('GET', '/api/sql/:db/:schema/:table/bulk/:id', bulkStatus),
  route('POST', '/api/sql/:db/:schema/:table/bulk/:id/cancel', bulkStatus),
  // Imports (issue 39): the upload is multipart; the report is CSV, served raw.
  route('POST', '/api/sql/:db/:schema/:table/import', importStarted),
  route('GET', '/api/sql/:db/:schema/:table/import/:id/preview', importPreview),
  route('POST', '/api/sql/:db/:schema/:table/import/:id/run', importStatus, { successStatus: 202 }),
  route('GET', '/api/sql/:db/:schema/:table/import/:id', importStatus),
  route('POST', '/api/sql/:db/:schema/:table/import/:id/cancel', importStatus),
  route('GET', '/api/sql/:db/:schema/:table/import/:id/report', null),
  // Saved views (issue 36).
  route('GET', '/api/sql/:db/:schema/:table/views', viewList),
  route('POST', '/api/sql/:db/:schema/:table/views', savedView),
  route('POST', '/api/sql/:db/:schema/:table/views/delete', z.null()),
  // Exports.
  route('POST', '/api/sql/:db/:schema/:table/export', exportStarted, { successStatus: 202 }),
  route('POST', '/api/sql/:db/:schema/:table/query/export', exportStarted, { successStatus: 202 }),
  route('GET', '/api/sql/:db/:schema/:table/export/:id', exportStatus),
  route('DELETE', '/api/sql/:db/:schema/:table/export/:id', exportStatus),
  route('POST', '/api/sql/:db/:schema/:table/export/:id/cancel', exportStatus),
  route('GET', '/api/exports/:id/file', null),
  // Administration.
  route('POST', '/api/admin/audit/:id/undo', undoResult),
  route('GET', '/api/admin/users', pagedUsers),
  route('GET', '/api/admin/users/:id', adminUserDetail),
  route('POST', '/api/admin/users/:id/roles', adminUserDetail),
  route('POST', '/api/admin/users/:id/lock', adminUserDetail),
  route('POST', '/api/admin/users/:id/unlock', adminUserDetail),
  route('POST', '/api/admin/users/:id/reset-2fa', adminUserDetail),
  route('POST', '/api/admin/users/:id/end-sessions', adminUserDetail),
  route('GET', '/api/admin/overview', adminOverview),
  route('GET', '/api/admin/roles', pagedRoles),
  route('GET', '/api/admin/roles/:id', role),
  route('POST', '/api/admin/roles', role),
  route('DELETE', '/api/admin/roles/:id', z.null()),
  route('GET', '/api/admin/tables', adminTables),
  route('GET', '/api/admin/audit', pagedAudit),
  route('GET', '/api/admin/audit/:id/rows', auditRows),
  route('GET', '/api/admin/:db/:schema/:table/:id', appRow),
  route('POST', '/api/admin/:db/:schema/:table', appRow),
  route('POST', '/api/admin/:db/:schema/:table/delete', appRow),
  route('GET', '/api/admin/analytics', analyticsReport),
  route('GET', '/api/admin/chats', pagedChats),
  route('GET', '/api/admin/chats/:sessionId', chatTranscript),
  route('GET', '/api/admin/messages', pagedContactMessages),
  route('POST', '/api/admin/messages/:id/answer', contactMessage),
  route('POST', '/api/admin/messages/:id/archive', contactMessage),
  // Accounts.
  route('GET', '/api/account/verify', verification),
  route('GET', '/api/account', user),
  route('POST', '/api/account', user),
  route('GET', '/api/account/roles', z.array(accountRole)),
  route('DELETE', '/api/account/delete', z.null()),
  route('POST', '/api/account/signup', preSignInToken),
  route('POST', '/api/account/login', preSignIn),
  route('POST', '/api/account/login/verify', verifyAnswer),
  route('POST', '/api/account/login/link', verification),
  route('POST', '/api/account/login/resend', z.null()),
  route('POST', '/api/account/forgotPassword', preSignInToken),
  route('POST', '/api/account/updatePassword', z.null()),
  route('GET', '/api/account/logout', z.null()),
  route('POST', '/api/account/reauth', z.null()),
  route('GET', '/api/account/eotp/:email', z.null()),
  route('GET', '/api/account/eotp/verify/:code', methodVerified),
  route('GET', '/api/account/potp/:phone', z.null()),
  route('GET', '/api/account/potp/verify/:code', methodVerified),
  route('GET', '/api/account/totp', totpSetup),
  route('GET', '/api/account/totp/verify/:code', methodVerified),
  route('POST', '/api/account/preferred2fa', user),
  route('POST', '/api/account/recovery-codes', recoveryCodes),
  route('GET', '/api/account/passkeys', z.array(passkeySummary)),
  route('POST', '/api/account/passkeys/register/options', passkeyRegistrationOptions),
  route('POST', '/api/account/passkeys/register/verify', passkeySummary),
  route('DELETE', '/api/account/passkeys/:id', z.null()),
  route('POST', '/api/account/login/passkey/options', passkeyLoginOptions),
  route('POST', '/api/account/login/passkey/verify', verifyAnswer),
  route('GET', '/api/account/providers', socialProviders),
  route('GET', '/api/account/login/:provider', null),
  route('GET', '/api/account/login/:provider/callback', null),
  route('POST', '/api/account/providers/:provider/link', socialLinkStart),
  route('DELETE', '/api/account/providers/:provider', z.null()),
  // The site.
  route('POST', '/api/chat/start', chatSession),
  route('GET', '/api/chat/:sessionId', chatSession),
  // With Accept: application/x-ndjson the answer is a stream of lines instead (fake-api.ts chatStream).
  route('POST', '/api/chat/:sessionId/add', chatReply),
  route('POST', '/api/contact', contactResult),
  route('GET', '/api/setup', setupStatus),
  route('POST', '/api/setup', z.null()),
  route('POST', '/api/analytics/events', z.null()),
  // The human check's challenge is ALTCHA's own object, not an envelope (its schema is the server's).
  route('GET', '/api/captcha', null),
  route('GET', '/api/health', healthResponse, { failures: { 503: healthResponse } }),
  route('GET', '/api/health/alive', aliveResponse),
  route('GET', '/api/health/ready', readyResponse, { failures: { 503: readyResponse } }),
  route('GET', '/api/metrics', null),
];

/** A route of the table matched by a path: its pattern's `:name` segments as params. */
export interface MatchedRoute {
  route: ContractRoute;
  params: Record<string, string>;
}

/**
 * The route of `method` that serves `path` (no query), as Fastify's router picks it: a literal segment before a
 * parameter, so /api/admin/users/3/roles is the user's roles, not an app-data row. A `:name` segment of `path`
 * matches only a parameter of the route, so a pattern given to the fake API finds its own route. Null when the
 * server has no such route.
 */
export function findContractRoute(method: string, path: string): MatchedRoute | null {
  const segments = path.split('/');
  let best: { matched: MatchedRoute; rank: string } | null = null;
  for (const candidate of contractRoutes) {
    if (candidate.method !== method) continue;
    const pattern = candidate.path.split('/');
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let rank = '';
    let fits = true;
    for (const [index, part] of pattern.entries()) {
      const segment = segments[index] ?? '';
      if (part.startsWith(':')) {
        params[part.slice(1)] = safeDecode(segment);
        rank += '0';
      } else if (part === segment) {
        rank += '1';
      } else {
        fits = false;
        break;
      }
    }
    if (fits && (!best || rank > best.rank)) best = { matched: { route: candidate, params }, rank };
  }
  return best?.matched ?? null;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
