import { useEffect, useRef, type ReactNode } from 'react';
import { Button, Drawer, Loader, Paper, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconX } from '@tabler/icons-react';
import { useChatTranscript } from '#web/api/admin/chat-transcript.ts';
import { useAdminChats } from '#web/api/admin/chats.ts';
import { failureMessage } from '#web/api/failure-message.ts';
import { AdminFrame } from '#web/features/admin/admin-frame.tsx';
import { AdminPager } from '#web/features/admin/admin-pager.tsx';
import { shortInstant } from '#web/features/admin/messages/message-format.ts';
import { pageCountOf } from '#web/ui/page-count.ts';
import { ChatList } from './chat-list.tsx';
import { chatTexts as ct } from './chat-texts.ts';
import { ChatTranscriptView } from './chat-transcript-view.tsx';
import { useChatsAddress } from './chats-address.ts';
import classes from './chats.module.css';

/** Conversations a page (issue 16). */
export const CHATS_PAGE_SIZE = 25;
/** Where the transcript sits beside the list rather than in a drawer (992 px and wider). */
const SIDE_BY_SIDE = '(min-width: 62em)';

/**
 * /admin/chats (issue 16): Titan's conversations, newest first, 25 a page (the page and the open conversation are in
 * the address). A conversation opens its whole transcript beside the list, or in a drawer on smaller screens.
 */
export function ChatsPage() {
  const view = useChatsAddress();
  const chats = useAdminChats({ page: view.page, pageSize: CHATS_PAGE_SIZE });
  const transcript = useChatTranscript(view.chat);
  const sideBySide = useMediaQuery(SIDE_BY_SIDE, true, { getInitialValueInEffect: false });
  const heading = useRef<HTMLHeadingElement>(null);
  useFailureToast(chats.error, ct.failed);

  const count = chats.data?.count ?? null;
  const pageCount = pageCountOf(count ?? 0, CHATS_PAGE_SIZE);
  const results = chats.data?.results ?? [];
  const failed = chats.isError && !chats.data;

  // Beside the list, the chosen conversation's heading takes the focus once it is there (a drawer traps its own).
  const focusWanted = useRef(false);
  useEffect(() => {
    if (focusWanted.current && transcript.data && sideBySide) {
      focusWanted.current = false;
      heading.current?.focus();
    }
  }, [transcript.data, sideBySide]);

  const select = (sessionId: string) => {
    focusWanted.current = true;
    view.setChat(sessionId);
  };

  const transcriptView = (withHeading: boolean, action?: ReactNode) => (
    <ChatTranscriptView
      transcript={transcript.data}
      pending={transcript.isPending}
      error={transcript.error}
      headingRef={heading}
      withHeading={withHeading}
      action={action}
    />
  );

  return (
    <AdminFrame title={ct.title}>
      <Stack gap="md" mt="md">
        {chats.isPending ? (
          <Stack align="center" py="xl" gap="xs">
            <Loader size="sm" aria-hidden />
            <Text c="dimmed" size="sm">
              {ct.loading}
            </Text>
          </Stack>
        ) : results.length === 0 ? (
          <Paper withBorder radius="md" p="xl">
            {failed ? (
              <Text c="dimmed" ta="center">
                {ct.failed}
              </Text>
            ) : view.page > 1 && (count ?? 0) > 0 ? (
              <Text c="dimmed" ta="center">
                {ct.noPage(view.page)}
              </Text>
            ) : (
              <Stack gap="xs" align="center">
                <Text fw={600} ta="center">
                  {ct.empty}
                </Text>
                <Text c="dimmed" size="sm" ta="center" maw="36rem">
                  {ct.emptyHint}
                </Text>
              </Stack>
            )}
          </Paper>
        ) : (
          <div className={classes.layout}>
            <div className={classes.side}>
              <ChatList
                chats={results}
                selected={view.chat}
                onSelect={select}
                dimmed={chats.isPlaceholderData}
              />
            </div>
            {sideBySide ? (
              <Paper
                withBorder
                radius="md"
                p="md"
                className={classes.main}
                component="section"
                aria-label={ct.transcript}
              >
                {view.chat ? (
                  transcriptView(
                    true,
                    <Button
                      variant="subtle"
                      color="gray"
                      size="xs"
                      leftSection={<IconX size={14} aria-hidden />}
                      onClick={() => view.setChat(null)}
                    >
                      {ct.close}
                    </Button>,
                  )
                ) : (
                  <Text c="dimmed" ta="center" py="xl">
                    {ct.chooseOne}
                  </Text>
                )}
              </Paper>
            ) : null}
          </div>
        )}
        <AdminPager
          page={view.page}
          pageCount={Math.max(pageCount, count === null ? view.page : 1)}
          countText={count === null ? '' : ct.count(count)}
          onPageChange={view.setPage}
        />
      </Stack>
      {sideBySide ? null : (
        <Drawer
          opened={view.chat !== null}
          onClose={() => view.setChat(null)}
          position="right"
          size="min(100%, 40rem)"
          title={transcript.data ? ct.transcriptName(shortInstant(transcript.data.createdAt)) : ct.transcript}
          closeButtonProps={{ 'aria-label': ct.close }}
        >
          {transcriptView(false)}
        </Drawer>
      )}
    </AdminFrame>
  );
}

/** The failure once per failure as a red toast, with the server's reason under it when it sent one. */
function useFailureToast(error: Error | null, title: string) {
  const shown = useRef<Error | null>(null);
  useEffect(() => {
    if (!error || shown.current === error) return;
    shown.current = error;
    const reason = failureMessage(error, title);
    notifications.show({ color: 'red', title, message: reason === title ? undefined : reason });
  }, [error, title]);
}
