import { AdminFrame } from '#web/features/admin/admin-frame.tsx';

/** Analytics (issue 15; being built). */
export function AnalyticsPage() {
  return <AdminFrame title="Analytics">{null}</AdminFrame>;
}
