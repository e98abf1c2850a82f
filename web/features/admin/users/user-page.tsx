import { AdminFrame } from '#web/features/admin/admin-frame.tsx';

/** /admin/users/{id}: one user (issue 14; being built). */
export function UserPage() {
  return <AdminFrame title="User">{null}</AdminFrame>;
}
