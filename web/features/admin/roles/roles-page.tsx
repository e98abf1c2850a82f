import { AdminFrame } from '#web/features/admin/admin-frame.tsx';

/** /admin/roles: roles, their links, permissions and users (issue 14; being built). */
export function RolesPage() {
  return <AdminFrame title="Roles">{null}</AdminFrame>;
}
