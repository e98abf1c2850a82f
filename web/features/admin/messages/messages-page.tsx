import { useEffect, useRef } from 'react';
import { Accordion, Loader, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ADMIN_PAGE_SIZE } from '#common/limits.ts';
import { useContactMessages } from '#web/api/contact/messages.ts';
import { failureMessage } from '#web/api/failure-message.ts';
import { AdminFrame } from '#web/features/admin/admin-frame.tsx';
import { MessageItem } from './message-item.tsx';
import { messageTexts as mt } from './message-texts.ts';
import { useMessagesAddress } from './messages-address.ts';
import { AdminPager } from '#web/features/admin/admin-pager.tsx';
import { pageCountOf } from '#web/ui/page-count.ts';

/**
 * /admin/messages (issue 15): the messages sent from Contact Us, newest first, in the Inbox or the Archive (the
 * switch and the page are in the address). A row shows who, the subject, when and whether the mail to the team went
 * out (and why not); opened, the message, its answer, the answer form and Archive or Move to inbox.
 */
export function MessagesPage() {
  const view = useMessagesAddress();
  const messages = useContactMessages({
    page: view.page,
    pageSize: ADMIN_PAGE_SIZE,
    archived: view.archived,
  });
  useFailureToast(messages.error);

  const count = messages.data?.count ?? null;
  const pageCount = pageCountOf(count ?? 0, ADMIN_PAGE_SIZE);
  const results = messages.data?.results ?? [];
  const failed = messages.isError && !messages.data;
  const emptyText = failed
    ? mt.failed
    : view.page > 1 && (count ?? 0) > 0
      ? mt.noPage(view.page)
      : mt.empty(view.archived);

  return (
    <AdminFrame
      title={mt.title}
      actions={
        <SegmentedControl
          aria-label={mt.show}
          value={view.archived ? 'archived' : 'inbox'}
          onChange={(value) => view.setArchived(value === 'archived')}
          data={[
            { value: 'inbox', label: mt.inbox },
            { value: 'archived', label: mt.archived },
          ]}
        />
      }
    >
      <Stack gap="md" mt="md">
        {messages.isPending ? (
          <Stack align="center" py="xl" gap="xs">
            <Loader size="sm" aria-hidden />
            <Text c="dimmed" size="sm">
              {mt.loading}
            </Text>
          </Stack>
        ) : results.length === 0 ? (
          <Paper withBorder radius="md" p="xl">
            <Text c="dimmed" ta="center">
              {emptyText}
            </Text>
          </Paper>
        ) : (
          <section
            aria-label={mt.listName(view.archived)}
            style={{ opacity: messages.isPlaceholderData ? 0.6 : 1 }}
          >
            <Accordion
              multiple
              variant="unstyled"
              chevronPosition="right"
              key={`${view.archived}-${view.page}`}
            >
              {results.map((message) => (
                <MessageItem key={message.id} message={message} />
              ))}
            </Accordion>
          </section>
        )}
        <AdminPager
          page={view.page}
          pageCount={Math.max(pageCount, count === null ? view.page : 1)}
          countText={count === null ? '' : mt.count(count)}
          onPageChange={view.setPage}
        />
      </Stack>
    </AdminFrame>
  );
}

/** 'Failed to get messages.' once per failure, with the server's reason under it when it sent one. */
function useFailureToast(error: Error | null) {
  const shown = useRef<Error | null>(null);
  useEffect(() => {
    if (!error || shown.current === error) return;
    shown.current = error;
    const reason = failureMessage(error, mt.failed);
    notifications.show({
      color: 'red',
      title: mt.failed,
      message: reason === mt.failed ? undefined : reason,
    });
  }, [error]);
}
