import { useEffect } from 'react';
import { Notifications, notifications, useNotifications } from '@mantine/notifications';
import { TOAST_FADE_MS, TOAST_TIMEOUT_MS } from '#common/limits.ts';

/** Mantine's toast stack with the app's settings; loaded by toasts.tsx with the first toast. */
export function ToastStack() {
  useOneTimeout();
  // Spec 000/001 §9: a toast stays 3000 ms and fades over 500 ms.
  return (
    <Notifications autoClose={TOAST_TIMEOUT_MS} transitionDuration={TOAST_FADE_MS} position="top-right" />
  );
}

/**
 * Spec 000 §9: every toast closes after TOAST_TIMEOUT_MS, errors too. A toast that asks for its own time (Mantine's
 * `autoClose: false` keeps it until closed by hand; two error toasts did, and stayed for good) is given the stack's
 * again here, where every toast passes, so no call of `notifications.show` anywhere can make one that stays.
 */
function useOneTimeout(): void {
  const { notifications: shown, queue } = useNotifications();
  useEffect(() => {
    for (const toast of [...shown, ...queue]) {
      if (toast.autoClose !== undefined) notifications.update({ ...toast, autoClose: undefined });
    }
  }, [shown, queue]);
}
