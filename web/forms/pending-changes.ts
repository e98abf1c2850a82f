import { useCallback, useEffect } from 'react';
import { notifications } from '@mantine/notifications';

/**
 * The pending-changes guard (spec 000 §4: pending changes block switching pages, selecting another role, adding
 * and deleting, with a warning). `guard(action, warning)` runs the action only when nothing is pending, else shows
 * the warning toast; while something is pending, leaving or reloading the page asks the browser's own question.
 */
export function usePendingChanges(pending: boolean): (action: () => void, warning: string) => boolean {
  useEffect(() => {
    if (!pending) return;
    const stay = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', stay);
    return () => window.removeEventListener('beforeunload', stay);
  }, [pending]);

  return useCallback(
    (action: () => void, warning: string) => {
      if (pending) {
        notifications.show({ color: 'yellow', message: warning });
        return false;
      }
      action();
      return true;
    },
    [pending],
  );
}
