import { Link } from 'react-router';
import { Button } from '@mantine/core';
import { IconArrowLeft, IconLogin } from '@tabler/icons-react';
import { shellMessages } from '#common/messages.ts';
import { LOGIN_PATH } from '#web/content/site.ts';
import { StatusPage } from '#web/ui/status-page.tsx';
import { useGoBack } from '#web/features/site/use-go-back.ts';

/** /error/unauthorized (spec 001 §2): Go Back, or Login. */
export function UnauthorizedPage() {
  const goBack = useGoBack();
  return (
    <StatusPage code="401" message={shellMessages.unauthorized}>
      <Button variant="default" onClick={goBack} leftSection={<IconArrowLeft size={18} />}>
        Go Back
      </Button>
      <Button component={Link} to={LOGIN_PATH} leftSection={<IconLogin size={18} />}>
        Login
      </Button>
    </StatusPage>
  );
}
