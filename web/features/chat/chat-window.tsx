import { Fragment, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import {
  ActionIcon,
  Anchor,
  Button,
  Group,
  Paper,
  Stack,
  Text,
  Textarea,
  VisuallyHidden,
} from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import { IconMessageChatbot, IconMinus, IconSend } from '@tabler/icons-react';
import { CHAT_TEXT_MAX, type ChatMessage } from '#common/contract/chat.ts';
import { siteMessages } from '#common/messages.ts';
import { chatTexts } from '#web/features/chat/chat-texts.ts';
import type { ChatStage } from '#web/features/chat/chat-stage.ts';
import { useConversation, type PendingReply } from '#web/features/chat/use-conversation.ts';
import { LinkedText, safeHref } from '#web/ui/linked-text.tsx';
import classes from './chat-window.module.css';

/** Spec 001 §9: the widget maximizes in 500 ms and minimizes in 300 ms. */
const OPENING_MS = 500;
const CLOSING_MS = 300;
/** The character count shows from here on, so a long message meets the limit with warning. */
const COUNT_FROM = CHAT_TEXT_MAX - 200;

export interface ChatWindowProps {
  stage: ChatStage;
  /** On a page without the widget (/db, /admin, /cc): the conversation is kept but nothing is shown. */
  hidden: boolean;
  onOpened: () => void;
  onMinimize: () => void;
  onClosed: () => void;
}

/**
 * The window of Titan (spec 001 §2, §4, §5, §9), loaded on first open: a dialog named 'Chat with Titan' with the
 * conversation as a log, the visitor's messages and Titan's replies as text with links, the reply streamed as it is
 * written, and the message box. It stays mounted once loaded, so minimizing and navigating keep the conversation.
 */
export function ChatWindow({ stage, hidden, onOpened, onMinimize, onClosed }: ChatWindowProps) {
  const shown = stage === 'opening' || stage === 'open' || stage === 'closing';
  const conversation = useConversation(shown && !hidden);
  const reduceMotion = useReducedMotion();
  const titleId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const log = useRef<HTMLDivElement>(null);
  const [text, setText] = useState('');
  // Focus goes to the message box once it can take it (it is disabled while a reply is pending).
  const wantsFocus = useRef(false);

  // The stages' timers: opening and closing last the spec's times (none with reduced motion).
  useEffect(() => {
    if (stage !== 'opening' && stage !== 'closing') return;
    const done = stage === 'opening' ? onOpened : onClosed;
    const timer = window.setTimeout(done, reduceMotion ? 0 : stage === 'opening' ? OPENING_MS : CLOSING_MS);
    return () => window.clearTimeout(timer);
  }, [stage, reduceMotion, onOpened, onClosed]);

  const inputBlocked = conversation.pending !== null || conversation.limitReached || conversation.restoring;

  useEffect(() => {
    if (stage === 'opening') wantsFocus.current = true;
  }, [stage]);
  useEffect(() => {
    if (!wantsFocus.current || !shown || hidden) return;
    if (inputBlocked) {
      if (!dialog.current?.contains(document.activeElement)) dialog.current?.focus();
      return;
    }
    wantsFocus.current = false;
    input.current?.focus();
  });

  // Escape minimizes, from anywhere in the window (or when focus was lost to the page by a disabled box).
  useEffect(() => {
    if (!shown || hidden) return;
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      const target = event.target instanceof Node ? event.target : null;
      if (target !== document.body && !dialog.current?.contains(target)) return;
      event.preventDefault();
      onMinimize();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [shown, hidden, onMinimize]);

  // The newest message stays in view as messages and streamed text arrive.
  const lastLength = conversation.messages.length;
  const streamed = conversation.pending?.streamed;
  useEffect(() => {
    const node = log.current;
    if (node) node.scrollTop = node.scrollHeight;
  }, [lastLength, streamed, shown]);

  if (!shown || hidden) return null;

  const send = () => {
    const sent = conversation.send(text, (failed) => {
      setText(failed);
      wantsFocus.current = true;
    });
    if (sent) {
      setText('');
      wantsFocus.current = true;
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Spec 001 §5: Enter sends; Shift+Enter starts a new line; an IME's Enter confirms its text.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    send();
  };

  const canSend = !inputBlocked && !conversation.starting && text.trim().length > 0;

  return (
    <Paper
      ref={dialog}
      role="dialog"
      aria-labelledby={titleId}
      tabIndex={-1}
      shadow="xl"
      withBorder
      radius="lg"
      className={classes.window}
      data-state={stage}
    >
      <Group className={classes.header} justify="space-between" wrap="nowrap" px="md" py="xs">
        <Group gap="xs" wrap="nowrap">
          <IconMessageChatbot size={22} aria-hidden="true" />
          <Text id={titleId} component="h2" fw={700} size="md" m={0}>
            {siteMessages.chatTitle}
          </Text>
        </Group>
        <ActionIcon
          variant="subtle"
          color="white"
          size="lg"
          aria-label={chatTexts.minimize}
          onClick={onMinimize}
        >
          <IconMinus size={20} aria-hidden="true" />
        </ActionIcon>
      </Group>

      <Stack
        ref={log}
        role="log"
        aria-live="polite"
        aria-label={chatTexts.messages}
        className={classes.log}
        gap="sm"
        p="md"
      >
        {conversation.messages.map((message, index) => (
          <Bubble key={`${message.id}-${index}`} message={message} />
        ))}
        {conversation.pending && <PendingBubbles pending={conversation.pending} />}
        {conversation.starting && !conversation.pending && <Typing />}
        {conversation.startFailed && (
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{chatTexts.startFailedHint}</Text>
            <Button size="xs" variant="light" onClick={conversation.startOver}>
              {chatTexts.startAgain}
            </Button>
          </Stack>
        )}
      </Stack>

      <Stack className={classes.footer} gap={4} p="sm">
        {conversation.limitReached ? (
          <Button onClick={conversation.startOver} loading={conversation.starting} fullWidth>
            {chatTexts.newChat}
          </Button>
        ) : null}
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <Textarea
            ref={input}
            aria-label={chatTexts.input}
            placeholder={chatTexts.placeholder}
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            onKeyDown={onKeyDown}
            disabled={inputBlocked}
            maxLength={CHAT_TEXT_MAX}
            autosize
            minRows={1}
            maxRows={4}
            style={{ flex: 1 }}
          />
          <Button onClick={send} disabled={!canSend} leftSection={<IconSend size={16} aria-hidden="true" />}>
            {chatTexts.send}
          </Button>
        </Group>
        {text.length >= COUNT_FROM && (
          <Text size="xs" c={text.length >= CHAT_TEXT_MAX ? 'red' : 'dimmed'} ta="right" aria-live="polite">
            {chatTexts.count(text.length, CHAT_TEXT_MAX)}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

/** The text of a message (the first content item, as spec 001 §3 says). */
function textOf(message: ChatMessage): string {
  return message.content[0]?.text.value ?? '';
}

function Bubble({ message }: { message: ChatMessage }) {
  if (message.role === 'user') return <VisitorBubble text={textOf(message)} />;
  const sources = message.sources.filter((source) => safeHref(source.path)?.startsWith('/'));
  return (
    <div className={classes.titanColumn}>
      <div className={`${classes.bubble} ${classes.titan}`}>
        <VisuallyHidden>{chatTexts.titan}: </VisuallyHidden>
        <LinkedText text={textOf(message)} />
      </div>
      {sources.length > 0 && (
        <Text size="xs" c="dimmed" mt={4} px={4}>
          {chatTexts.sources}:{' '}
          {sources.map((source, index) => (
            <Fragment key={`${source.path}-${index}`}>
              {index > 0 && ' · '}
              <Anchor component={Link} to={source.path} size="xs" underline="always">
                {source.title}
              </Anchor>
            </Fragment>
          ))}
        </Text>
      )}
    </div>
  );
}

function VisitorBubble({ text }: { text: string }) {
  return (
    <div className={`${classes.bubble} ${classes.visitor}`}>
      <VisuallyHidden>{chatTexts.visitor}: </VisuallyHidden>
      {text}
    </div>
  );
}

/** The visitor's message on its way, and Titan's reply as it streams in (the typing dots until the first words). */
function PendingBubbles({ pending }: { pending: PendingReply }) {
  return (
    <>
      <VisitorBubble text={pending.text} />
      {pending.streamed ? (
        <div className={classes.titanColumn} aria-busy="true">
          <div className={`${classes.bubble} ${classes.titan}`}>
            <VisuallyHidden>{chatTexts.titan}: </VisuallyHidden>
            <LinkedText text={pending.streamed} />
          </div>
        </div>
      ) : (
        <Typing />
      )}
    </>
  );
}

function Typing() {
  return (
    <div className={`${classes.bubble} ${classes.titan}`}>
      <span className={classes.dot} aria-hidden="true" />
      <span className={classes.dot} aria-hidden="true" />
      <span className={classes.dot} aria-hidden="true" />
      <VisuallyHidden>{chatTexts.typing}</VisuallyHidden>
    </div>
  );
}
