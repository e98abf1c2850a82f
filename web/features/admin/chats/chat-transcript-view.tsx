import type { ReactNode, Ref } from 'react';
import { Link } from 'react-router';
import { Anchor, Badge, Group, Loader, Stack, Text, Title } from '@mantine/core';
import type { ChatMessage, ChatTranscript } from '#common/contract/chat.ts';
import { failureMessage } from '#web/api/failure-message.ts';
import { shortInstant } from '#web/features/admin/messages/message-format.ts';
import { LinkedText, safeHref } from '#web/ui/linked-text.tsx';
import { isUnanswered, messageInstant, messageText } from './chat-format.ts';
import { chatTexts as ct } from './chat-texts.ts';
import classes from './chats.module.css';

const originColor = {
  visitor: 'gray',
  introduction: 'grape',
  'built-in': 'teal',
  'small-talk': 'cyan',
  model: 'indigo',
  limit: 'yellow',
} as const;

export interface ChatTranscriptViewProps {
  transcript: ChatTranscript | undefined;
  pending: boolean;
  error: Error | null;
  /** The heading takes the focus when a conversation is chosen from the list (beside it, not in a drawer). */
  headingRef?: Ref<HTMLHeadingElement>;
  /** Whether to show the heading (a drawer shows its own title). */
  withHeading?: boolean;
  /** Beside the heading (Close). */
  action?: ReactNode;
}

/**
 * One conversation, whole: who and when, then every message with its time, who wrote it, where a reply came from
 * (built-in, model, limit, introduction), its text with Titan's Markdown links as links (never HTML) and its sources.
 */
export function ChatTranscriptView({
  transcript,
  pending,
  error,
  headingRef,
  withHeading = true,
  action,
}: ChatTranscriptViewProps) {
  if (pending) {
    return (
      <Stack align="center" py="xl" gap="xs">
        <Loader size="sm" aria-hidden />
        <Text c="dimmed" size="sm">
          {ct.transcriptLoading}
        </Text>
      </Stack>
    );
  }
  if (!transcript) {
    return (
      <Text c="red" role="alert">
        {failureMessage(error, ct.transcriptFailed)}
      </Text>
    );
  }
  return (
    <Stack gap="md">
      <div>
        {withHeading ? (
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
            <Title order={2} size="h4" ref={headingRef} tabIndex={-1} className={classes.heading}>
              {ct.transcriptName(shortInstant(transcript.createdAt))}
            </Title>
            {action}
          </Group>
        ) : null}
        <Text size="sm" className={classes.who}>
          {transcript.userEmail ?? ct.anonymous}
        </Text>
        <Group gap="xs" mt={4}>
          <Text size="xs" c="dimmed">
            {ct.visitorMessages(transcript.visitorMessages)}
          </Text>
          {transcript.unanswered > 0 ? (
            <Badge size="sm" variant="light" color="orange" title={ct.unansweredTitle}>
              {ct.unanswered(transcript.unanswered)}
            </Badge>
          ) : null}
        </Group>
        <Text size="xs" c="dimmed" className={classes.session}>
          {ct.session(transcript.sessionId)}
        </Text>
      </div>
      <ol aria-label={ct.transcriptList} className={classes.transcript}>
        {transcript.messages.map((message, index) => (
          <TranscriptMessage key={`${message.id}-${index}`} message={message} />
        ))}
      </ol>
    </Stack>
  );
}

function TranscriptMessage({ message }: { message: ChatMessage }) {
  const visitor = message.role === 'user';
  return (
    <li className={classes.message} data-role={message.role}>
      <Group gap={6} wrap="wrap" align="center">
        <Text component="span" size="sm" fw={700}>
          {visitor ? ct.visitor : ct.titan}
        </Text>
        {visitor ? null : (
          <Badge
            component="span"
            size="xs"
            variant="light"
            color={originColor[message.origin]}
            title={ct.originTitle[message.origin]}
          >
            {ct.origin[message.origin]}
          </Badge>
        )}
        {isUnanswered(message) ? (
          <Badge component="span" size="xs" variant="light" color="orange" title={ct.unansweredTitle}>
            {ct.notAnswered}
          </Badge>
        ) : null}
        <Text component="span" size="xs" c="dimmed" className={classes.messageTime}>
          <time dateTime={messageInstant(message)}>{shortInstant(messageInstant(message))}</time>
        </Text>
      </Group>
      <Text size="sm" className={classes.body} mt={4}>
        <LinkedText text={messageText(message)} />
      </Text>
      {message.sources.length > 0 ? (
        <div className={classes.sources}>
          <Text component="span" size="xs" c="dimmed">
            {ct.sources}:
          </Text>
          <ul aria-label={ct.sources} className={classes.sourceList}>
            {message.sources.map((source) => (
              <li key={source.path}>
                <SourceLink title={source.title} path={source.path} />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </li>
  );
}

/** A source as a link: a page of this site in the app, an https address in a new tab, anything else as text. */
function SourceLink({ title, path }: { title: string; path: string }) {
  const href = safeHref(path);
  if (!href)
    return (
      <Text span size="xs">
        {title}
      </Text>
    );
  return href.startsWith('/') ? (
    <Anchor component={Link} to={href} size="xs">
      {title}
    </Anchor>
  ) : (
    <Anchor href={href} target="_blank" rel="noopener noreferrer" size="xs">
      {title}
    </Anchor>
  );
}
