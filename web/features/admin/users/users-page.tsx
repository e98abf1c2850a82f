import { AdminFrame } from '#web/features/admin/admin-frame.tsx';

/** /admin/users: the user list (issue 14; being built). */
export function UsersPage() {
  return <AdminFrame title="Users">{null}</AdminFrame>;
}
