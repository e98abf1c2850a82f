import { Notifications } from '@mantine/notifications';
import { TOAST_FADE_MS, TOAST_TIMEOUT_MS } from '#common/limits.ts';

/** Mantine's toast stack with the app's settings; loaded by toasts.tsx with the first toast. */
export function ToastStack() {
  // Spec 000/001 §9: a toast stays 3000 ms and fades over 500 ms.
  return (
    <Notifications autoClose={TOAST_TIMEOUT_MS} transitionDuration={TOAST_FADE_MS} position="top-right" />
  );
}
