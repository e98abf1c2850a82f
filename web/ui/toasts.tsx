import { lazy, Suspense, useState } from 'react';
import { useNotifications } from '@mantine/notifications';

// The stack (its transitions and portal) loads with the first toast; `notifications.show` only needs the store,
// which is small (decision 0033: a first visit's page shows no toast).
const ToastStack = lazy(() => import('#web/ui/toast-stack.tsx').then((m) => ({ default: m.ToastStack })));

/** Where the app's toasts show (top right); mounted once, by AppProviders. */
export function Toasts() {
  const { notifications, queue } = useNotifications();
  const [wanted, setWanted] = useState(false);
  if (!wanted && notifications.length + queue.length > 0) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <ToastStack />
    </Suspense>
  );
}
