import { Badge, Text, UnstyledButton } from '@mantine/core';
import type { ChatSummary } from '#common/contract/chat.ts';
import { shortInstant } from '#web/features/admin/messages/message-format.ts';
import { chatTexts as ct } from './chat-texts.ts';
import classes from './chats.module.css';

export interface ChatListProps {
  chats: ChatSummary[];
  selected: string | null;
  onSelect: (sessionId: string) => void;
  dimmed?: boolean;
}

/**
 * The conversations, newest first: each a button with who (the account or a visitor not signed in), when it started,
 * the first question, the visitor's messages, the last message's time and "N unanswered" when Titan did not know.
 */
export function ChatList({ chats, selected, onSelect, dimmed = false }: ChatListProps) {
  return (
    <section aria-label={ct.listName} style={{ opacity: dimmed ? 0.6 : 1 }}>
      <ul className={classes.list}>
        {chats.map((chat) => {
          const current = chat.sessionId === selected;
          return (
            <li key={chat.sessionId}>
              <UnstyledButton
                className={classes.entry}
                data-selected={current || undefined}
                aria-current={current ? 'true' : undefined}
                onClick={() => onSelect(chat.sessionId)}
              >
                <span className={classes.topLine}>
                  <Text component="span" fw={600} className={classes.who}>
                    {chat.userEmail ?? ct.anonymous}
                  </Text>
                  <Text component="span" size="sm" c="dimmed" className={classes.time}>
                    <time dateTime={chat.createdAt}>{ct.started(shortInstant(chat.createdAt))}</time>
                  </Text>
                </span>
                <Text
                  component="span"
                  className={classes.question}
                  c={chat.firstQuestion ? undefined : 'dimmed'}
                  fs={chat.firstQuestion ? undefined : 'italic'}
                >
                  {chat.firstQuestion ?? ct.noQuestion}
                </Text>
                <span className={classes.facts}>
                  <Text component="span" size="xs" c="dimmed">
                    {ct.visitorMessages(chat.visitorMessages)}
                  </Text>
                  <Text component="span" size="xs" c="dimmed">
                    <time dateTime={chat.lastAt}>{ct.last(shortInstant(chat.lastAt))}</time>
                  </Text>
                  {chat.unanswered > 0 ? (
                    <Badge
                      component="span"
                      size="sm"
                      variant="light"
                      color="orange"
                      title={ct.unansweredTitle}
                    >
                      {ct.unanswered(chat.unanswered)}
                    </Badge>
                  ) : null}
                </span>
              </UnstyledButton>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
