import { Accordion, Badge, Box, Button, Divider, Group, Paper, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArchive, IconInbox } from '@tabler/icons-react';
import type { ContactMessage } from '#common/contract/contact.ts';
import { useArchiveMessage } from '#web/api/contact/archive-message.ts';
import { failureMessage } from '#web/api/failure-message.ts';
import { AnswerForm } from './answer-form.tsx';
import { mailStatusOf, senderOf, shortInstant } from './message-format.ts';
import { messageTexts as mt } from './message-texts.ts';
import classes from './messages.module.css';

const archiveFailed = 'Failed to move the message... Please try again.';

/**
 * One message of the list: a closed row shows who, the subject, when and what became of the mail to the team; opened,
 * the whole message, the answer given, the answer form and Archive (or Move to inbox).
 */
export function MessageItem({ message }: { message: ContactMessage }) {
  const sender = senderOf(message);
  const mail = mailStatusOf(message);
  const archived = message.archivedAt !== null;
  const archiveMessage = useArchiveMessage();

  const toggleArchive = () =>
    archiveMessage.mutate(
      { id: message.id, archived: !archived },
      {
        onSuccess: (result) => {
          if (result.message) notifications.show({ color: 'green', message: result.message });
        },
        onError: (error) =>
          notifications.show({ color: 'red', message: failureMessage(error, archiveFailed) }),
      },
    );

  return (
    <Accordion.Item value={String(message.id)} className={classes.item}>
      <Accordion.Control>
        <span className={classes.summary}>
          <span className={classes.topLine}>
            <Text component="span" fw={600} className={classes.sender}>
              {sender.name ?? sender.email}
            </Text>
            {sender.name ? (
              <Text component="span" size="sm" c="dimmed" className={classes.sender}>
                {sender.email}
              </Text>
            ) : null}
            <Text component="span" size="sm" c="dimmed" className={classes.time}>
              <time dateTime={message.createdAt}>{shortInstant(message.createdAt)}</time>
            </Text>
          </span>
          <Text component="span" className={classes.subject}>
            {message.subject}
          </Text>
          <span className={classes.badges}>
            <Badge component="span" variant="light" color={mail.color} title={mt.mailStatusLabel}>
              {mail.label}
            </Badge>
            {message.answer !== null ? (
              <Badge component="span" variant="light" color="blue">
                {mt.answered}
              </Badge>
            ) : null}
            {mail.reason ? (
              <Text component="span" size="xs" c="dimmed" className={classes.reason}>
                {mail.reason}
              </Text>
            ) : null}
          </span>
        </span>
      </Accordion.Control>
      <Accordion.Panel>
        <Stack gap="md">
          <Text className={classes.body}>{message.message}</Text>
          {message.answer !== null ? (
            <Paper withBorder radius="md" p="sm" component="section" aria-label={mt.answerHeading}>
              <Text size="sm" fw={600}>
                {message.answeredAt ? mt.answeredAt(shortInstant(message.answeredAt)) : mt.answered}
              </Text>
              <Text size="sm" className={classes.body} mt={4}>
                {message.answer}
              </Text>
            </Paper>
          ) : null}
          <AnswerForm message={message} />
          <Divider />
          <Group justify="space-between" gap="sm">
            <Box>
              {message.archivedAt ? (
                <Text size="sm" c="dimmed">
                  {mt.archivedAt(shortInstant(message.archivedAt))}
                </Text>
              ) : null}
            </Box>
            <Button
              variant="default"
              loading={archiveMessage.isPending}
              leftSection={
                archived ? <IconInbox size={16} aria-hidden /> : <IconArchive size={16} aria-hidden />
              }
              onClick={toggleArchive}
            >
              {archived ? mt.unarchive : mt.archive}
            </Button>
          </Group>
        </Stack>
      </Accordion.Panel>
    </Accordion.Item>
  );
}
