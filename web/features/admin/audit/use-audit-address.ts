import { useCallback, useEffect, useMemo, useState } from 'react';
import { useLocation } from 'react-router';
import {
  auditSearch,
  noFilters,
  readAuditAddress,
  type AuditAddress,
  type AuditFilters,
} from './audit-address.ts';

/** Writes the filters into the address without a navigation (a navigation rebuilds the page: spec 001 §2). */
function writeAuditAddress(address: AuditAddress): void {
  const search = auditSearch(address).toString();
  const url = `${window.location.pathname}${search ? `?${search}` : ''}`;
  if (`${window.location.pathname}${window.location.search}` === url) return;
  window.history.replaceState(window.history.state, '', url);
}

const same = (a: AuditAddress, b: AuditAddress) => auditSearch(a).toString() === auditSearch(b).toString();

/**
 * The trail's filters and page as state, read from the address the page opened with and written back after every
 * change (replaceState, as the database browser does: docs/decisions/0027), so a view can be shared and reloaded
 * while the open entries, the focus and an open picker stay. A filter change goes back to page 1.
 */
export function useAuditAddress() {
  const { search } = useLocation();
  const [address, setAddress] = useState(() => readAuditAddress(new URLSearchParams(search)));

  useEffect(() => writeAuditAddress(address), [address]);

  // A control that repeats its value (a picker settling) changes nothing.
  const change = useCallback(
    (next: (current: AuditAddress) => AuditAddress) =>
      setAddress((current) => {
        const changed = next(current);
        return same(changed, current) ? current : changed;
      }),
    [],
  );
  const setFilters = useCallback(
    (filters: Partial<AuditFilters>) => change((current) => ({ ...current, ...filters, page: 1 })),
    [change],
  );
  const setPage = useCallback((page: number) => change((current) => ({ ...current, page })), [change]);
  const clear = useCallback(() => change(() => ({ ...noFilters, page: 1 })), [change]);

  return useMemo(() => ({ address, setFilters, setPage, clear }), [address, setFilters, setPage, clear]);
}
