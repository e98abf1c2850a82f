import { useCallback, useEffect } from 'react';
import { notifications } from '@mantine/notifications';
import { useNavigationGuard } from '#web/forms/navigation-guard.tsx';

/**
 * The pending-changes guard (spec 000 §4: pending changes block switching pages, selecting another role, adding
 * and deleting, with a warning). `guard(action, warning)` runs the action only when nothing is pending, else shows
 * the warning toast; while something is pending, in-app navigation stays on the page with 'Cannot switch pages with
 * pending changes.' (web/forms/navigation-guard.tsx), and leaving or reloading the page asks the browser's question.
 */
export function usePendingChanges(pending: boolean): (action: () => void, warning: string) => boolean {
  useNavigationGuard(pending);
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
