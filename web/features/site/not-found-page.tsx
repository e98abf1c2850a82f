import { Button } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { shellMessages } from '#common/messages.ts';
import { StatusPage } from '#web/ui/status-page.tsx';
import { useGoBack } from '#web/features/site/use-go-back.ts';

/** /error and every unknown path (spec 001 §2). */
export function NotFoundPage() {
  const goBack = useGoBack();
  return (
    <StatusPage code="404" message={shellMessages.notFound}>
      <Button onClick={goBack} leftSection={<IconArrowLeft size={18} />}>
        Go Back
      </Button>
    </StatusPage>
  );
}
