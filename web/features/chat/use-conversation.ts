import { useCallback, useEffect, useRef, useState } from 'react';
import { notifications } from '@mantine/notifications';
import { chatMessages, type ChatMessage, type ChatSession } from '#common/contract/chat.ts';
import { siteMessages } from '#common/messages.ts';
import { useAddMessage } from '#web/api/chat/add-message.ts';
import { useChat } from '#web/api/chat/get-chat.ts';
import { useStartChat } from '#web/api/chat/start-chat.ts';
import { failureMessage } from '#web/api/failure-message.ts';
import { chatTexts } from '#web/features/chat/chat-texts.ts';
import { readStoredChat, writeStoredChat } from '#web/features/chat/chat-storage.ts';
import { siteLinks } from '#web/site-links.ts';

/** A message of the visitor waiting for Titan's reply, and the reply as streamed so far. */
export interface PendingReply {
  text: string;
  streamed: string;
}

/** Titan's canned last bubble once the limit is reached (the server's own limit reply, shown without a call). */
const limitBubble = (): ChatMessage => ({
  id: 0,
  role: 'assistant',
  content: [{ type: 'text', text: { value: chatMessages.limitReply(siteLinks().supportEmail) } }],
  createdAt: 0,
  origin: 'limit',
  sources: [],
});

export interface Conversation {
  messages: ChatMessage[];
  pending: PendingReply | null;
  /** The introduction (or a first message's start) is on its way. */
  starting: boolean;
  /** The last start failed: the window offers to try again. */
  startFailed: boolean;
  /** The stored conversation is being read after a reload. */
  restoring: boolean;
  limitReached: boolean;
  /** Sends the visitor's text; false when it was ignored (empty, or a reply is pending, or the limit is reached). */
  send: (text: string, onFailed: (text: string) => void) => boolean;
  /** Forgets this conversation and starts a new one with Titan's introduction. */
  startOver: () => void;
}

/**
 * Titan's conversation in this tab (spec 001 §2, §4, §5, §9): started with the introduction when the window is
 * first shown (`active`), read again from the server after a reload (a session the server no longer knows is
 * forgotten quietly and a new one started), the visitor's messages sent one at a time with the reply streamed in.
 */
export function useConversation(active: boolean): Conversation {
  const [restoreId, setRestoreId] = useState(() => readStoredChat().sessionId);
  const restore = useChat(restoreId);
  const [session, setSession] = useState<ChatSession | null>(null);
  const [pending, setPending] = useState<PendingReply | null>(null);
  const [startFailed, setStartFailed] = useState(false);
  const startChat = useStartChat();
  const addMessage = useAddMessage();
  // Once per conversation, also under StrictMode's doubled effects.
  const introduced = useRef(false);

  // What is shown: the conversation as changed here, else the one read back after a reload.
  const current = session ?? restore.data ?? null;
  const restoring = restoreId !== null && restore.isPending;

  const adopt = useCallback((next: ChatSession) => {
    setSession(next);
    setStartFailed(false);
    writeStoredChat({ sessionId: next.sessionId });
  }, []);

  const forget = useCallback(() => {
    writeStoredChat({ sessionId: null });
    setRestoreId(null);
    setSession(null);
  }, []);

  const start = useCallback(
    (first: string | null, onFailed?: (text: string) => void) => {
      if (first === null) introduced.current = true;
      startChat.mutate(
        { messages: first === null ? [] : [{ role: 'user', content: first }] },
        {
          onSuccess: (answer) => {
            setPending(null);
            adopt(answer.data);
          },
          onError: (error) => {
            setPending(null);
            setStartFailed(true);
            const detail = failureMessage(error, '');
            notifications.show({
              color: 'red',
              title: siteMessages.chatStartFailed,
              message: [detail, first === null ? chatTexts.startHelp : chatTexts.keptInInput]
                .filter(Boolean)
                .join(' '),
            });
            if (first !== null) onFailed?.(first);
          },
        },
      );
    },
    [adopt, startChat],
  );

  // A stored session the server no longer has (404), or that cannot be read: forgotten, and a new one started
  // below without a toast.
  const restoreFailed = restoreId !== null && restore.isError;
  useEffect(() => {
    if (restoreFailed) writeStoredChat({ sessionId: null });
  }, [restoreFailed]);

  // The first showing of the window asks for Titan's introduction.
  const waitsForRestore = restoreId !== null && !restoreFailed;
  useEffect(() => {
    if (!active || current !== null || waitsForRestore || introduced.current) return;
    start(null);
  }, [active, current, waitsForRestore, start]);

  const limitReached = current !== null && current.remaining <= 0;
  const messages = current?.messages ?? [];
  const shown =
    limitReached && messages.at(-1)?.origin !== 'limit' && pending === null
      ? [...messages, limitBubble()]
      : messages;
  const busy = pending !== null || startChat.isPending || restoring;

  const send = (raw: string, onFailed: (text: string) => void): boolean => {
    const text = raw.trim();
    if (!text || busy || limitReached) return false;
    setPending({ text, streamed: '' });
    if (current === null) {
      // No conversation (the introduction failed): this message starts one and is answered in the start's reply.
      start(text, onFailed);
      return true;
    }
    const sessionId = current.sessionId;
    addMessage.mutate(
      {
        sessionId,
        content: text,
        onDelta: (delta) => setPending((was) => (was ? { ...was, streamed: was.streamed + delta } : was)),
      },
      {
        onSuccess: ({ data }) => {
          setPending(null);
          setSession((was) => {
            const base = was ?? current;
            return {
              ...base,
              messages: [...base.messages, data.message, data.reply],
              remaining: data.remaining,
            };
          });
        },
        onError: (error) => {
          setPending(null);
          const detail = failureMessage(error, '');
          notifications.show({
            color: 'red',
            title: siteMessages.chatAddFailed,
            message: [detail, chatTexts.keptInInput].filter(Boolean).join(' '),
          });
          // The server no longer knows this chat: the next message starts a new one.
          if (detail === chatMessages.notFound) forget();
          onFailed(text);
        },
      },
    );
    return true;
  };

  const startOver = () => {
    forget();
    setPending(null);
    introduced.current = false;
    start(null);
  };

  return {
    messages: shown,
    pending,
    starting: startChat.isPending,
    startFailed: startFailed && current === null && !startChat.isPending,
    restoring,
    limitReached,
    send,
    startOver,
  };
}
