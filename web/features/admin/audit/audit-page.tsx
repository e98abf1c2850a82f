import { AdminFrame } from '#web/features/admin/admin-frame.tsx';

/** /admin/audit: the audit trail (issue 14; being built). */
export function AuditPage() {
  return <AdminFrame title="Audit">{null}</AdminFrame>;
}
