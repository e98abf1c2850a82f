import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { auditSearch, readAuditAddress, type AuditAddress, type AuditFilters } from './audit-address.ts';

/** The trail's filters and page, read from and written to the address. A filter change goes back to page 1. */
export function useAuditAddress() {
  const [params, setParams] = useSearchParams();
  const address = useMemo(() => readAuditAddress(params), [params]);

  const setFilters = useCallback(
    (change: Partial<AuditFilters>) => setParams(auditSearch({ ...address, ...change, page: 1 })),
    [address, setParams],
  );
  const setPage = useCallback(
    (page: number) => setParams(auditSearch({ ...address, page })),
    [address, setParams],
  );
  const clear = useCallback(() => setParams(new URLSearchParams()), [setParams]);

  return { address, setFilters, setPage, clear } satisfies {
    address: AuditAddress;
    setFilters: (change: Partial<AuditFilters>) => void;
    setPage: (page: number) => void;
    clear: () => void;
  };
}
