import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { notifications } from '@mantine/notifications';
import { accountMessages } from '#common/messages.ts';
import { fetchLogout } from '#web/api/account/logout.ts';
import { HOME_PATH } from '#common/content/site.ts';
import { useSession } from '#web/session/session-context.ts';
import { PageLoader } from '#web/ui/page-loader.tsx';

/** /account/logout (spec 000 §2): ends the session on the server, then here, then goes to /home. The session ends
 * in this browser even when the server cannot be told (the toast says so); the server's own idle limit ends it there. */
export function LogoutPage() {
  const { signOut } = useSession();
  const navigate = useNavigate();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void fetchLogout().then((answer) => {
      if (!answer.isSuccess) notifications.show({ color: 'red', message: accountMessages.logoutFailed });
      signOut();
      void navigate(HOME_PATH, { replace: true });
    });
  }, [signOut, navigate]);

  return <PageLoader label="Signing out" />;
}
