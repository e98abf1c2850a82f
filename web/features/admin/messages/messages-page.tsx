import { AdminFrame } from '#web/features/admin/admin-frame.tsx';

/** Messages (issue 15; being built). */
export function MessagesPage() {
  return <AdminFrame title="Messages">{null}</AdminFrame>;
}
