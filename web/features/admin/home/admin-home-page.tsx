import { AdminFrame } from '#web/features/admin/admin-frame.tsx';

/** /admin/home: the administrator's start page (issue 14; being built). */
export function AdminHomePage() {
  return <AdminFrame title="Admin">{null}</AdminFrame>;
}
