import { ADMIN_PAGE_SIZE } from '#common/limits.ts';
import type { AuditRequest } from '#web/api/admin/audit.ts';
import { pageCountOf } from '#web/ui/page-count.ts';

/*
 * The audit trail's filters in its address (docs/architecture.md habit 16): /admin/audit?userId=3&
 * table=chinook/main/Genre&action=data.update,data.delete&from=…&to=…&page=2, so a view can be shared and reloaded
 * (a user's page links to ?userId=). Absent means any; a value that does not parse is left out instead of failing
 * the page. The instants are ISO (UTC); the date inputs show them in local time.
 */

export interface AuditFilters {
  userId: number | null;
  /** A TableId {db}/{schema}/{table}. */
  table: string | null;
  actions: string[];
  /** ISO instants. */
  from: string | null;
  to: string | null;
}

export interface AuditAddress extends AuditFilters {
  /** From 1. */
  page: number;
}

export const noFilters: AuditFilters = { userId: null, table: null, actions: [], from: null, to: null };

const instant = (text: string | null): string | null =>
  text !== null && text.trim() !== '' && !Number.isNaN(Date.parse(text)) ? text.trim() : null;

const wholeFrom = (text: string | null, least: number): number | null => {
  if (text === null || !/^\d+$/.test(text.trim())) return null;
  const value = Number(text);
  return Number.isSafeInteger(value) && value >= least ? value : null;
};

/** The filters and page an address holds. */
export function readAuditAddress(params: URLSearchParams): AuditAddress {
  const table = params.get('table')?.trim() ?? '';
  return {
    userId: wholeFrom(params.get('userId'), 1),
    table: /^[^/]+\/[^/]+\/.+$/.test(table) ? table : null,
    actions: [
      ...new Set(
        (params.get('action') ?? '')
          .split(',')
          .map((a) => a.trim())
          .filter(Boolean),
      ),
    ],
    from: instant(params.get('from')),
    to: instant(params.get('to')),
    page: wholeFrom(params.get('page'), 1) ?? 1,
  };
}

/** The address of filters and a page; what is absent (and page 1) is left out. */
export function auditSearch(address: AuditAddress): URLSearchParams {
  const params = new URLSearchParams();
  if (address.userId !== null) params.set('userId', String(address.userId));
  if (address.table !== null) params.set('table', address.table);
  if (address.actions.length) params.set('action', address.actions.join(','));
  if (address.from !== null) params.set('from', address.from);
  if (address.to !== null) params.set('to', address.to);
  if (address.page > 1) params.set('page', String(address.page));
  return params;
}

/** The request of one page of entries (ADMIN_PAGE_SIZE, newest first). */
export function auditRequest(address: AuditAddress): AuditRequest {
  return {
    page: address.page,
    pageSize: ADMIN_PAGE_SIZE,
    ...(address.userId !== null ? { userId: address.userId } : {}),
    ...(address.table !== null ? { table: address.table } : {}),
    ...(address.actions.length ? { action: address.actions.join(',') } : {}),
    ...(address.from !== null ? { from: address.from } : {}),
    ...(address.to !== null ? { to: address.to } : {}),
  };
}

export const hasFilters = (filters: AuditFilters) =>
  filters.userId !== null ||
  filters.table !== null ||
  filters.actions.length > 0 ||
  filters.from !== null ||
  filters.to !== null;

/** Pages of ADMIN_PAGE_SIZE entries that `count` fill: at least 1. */
export const auditPageCount = (count: number) => pageCountOf(count, ADMIN_PAGE_SIZE);

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO instant as the date-time input's local value (YYYY-MM-DD HH:mm:ss), or null. */
export function localInputValue(iso: string | null): string | null {
  if (iso === null) return null;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return null;
  return (
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ` +
    `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
  );
}

/** The date-time input's local value (YYYY-MM-DD HH:mm[:ss]) as an ISO instant, or null. */
export function isoOfLocalInput(value: string | null): string | null {
  const match =
    value === null ? null : /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?/.exec(value);
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match.map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const local = new Date(y, mo - 1, d, h, mi, Number.isNaN(s) ? 0 : s);
  return Number.isNaN(local.getTime()) ? null : local.toISOString();
}
