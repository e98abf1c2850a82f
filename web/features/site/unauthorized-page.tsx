import { Link, useLocation, useSearchParams } from 'react-router';
import { Button } from '@mantine/core';
import { IconArrowLeft, IconLogin } from '@tabler/icons-react';
import { shellMessages } from '#common/messages.ts';
import { LOGIN_PATH } from '#common/content/site.ts';
import { safeReturnPath } from '#web/session/safe-return-path.ts';
import { StatusPage } from '#web/ui/status-page.tsx';
import { useGoBack } from '#web/features/site/use-go-back.ts';

/** The page the person tried to open: the access guard's navigation state, else this page's own `r`. */
function triedPage(state: unknown, r: string | null): string | null {
  const from =
    typeof state === 'object' && state !== null && 'from' in state && typeof state.from === 'string'
      ? state.from
      : r;
  return safeReturnPath(from);
}

/** /error/unauthorized (spec 001 §2): Go Back, or Login, which returns to the page they tried once signed in. */
export function UnauthorizedPage() {
  const goBack = useGoBack();
  const location = useLocation();
  const [params] = useSearchParams();
  const tried = triedPage(location.state, params.get('r'));
  const login = tried ? `${LOGIN_PATH}?r=${encodeURIComponent(tried)}` : LOGIN_PATH;
  return (
    <StatusPage code="401" message={shellMessages.unauthorized}>
      <Button variant="default" onClick={goBack} leftSection={<IconArrowLeft size={18} />}>
        Go Back
      </Button>
      <Button component={Link} to={login} leftSection={<IconLogin size={18} />}>
        Login
      </Button>
    </StatusPage>
  );
}
