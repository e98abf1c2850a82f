import type { ChatOrigin } from '#common/contract/chat.ts';
import { CHAT_MESSAGE_LIMIT } from '#common/limits.ts';

/** The conversations page's own words (/admin/chats). */
export const chatTexts = {
  title: 'Chats',
  listName: 'Conversations',
  loading: 'Loading conversations…',
  failed: 'Failed to get the conversations.',
  empty: 'No conversations yet.',
  emptyHint:
    'Titan, the "Chat with Titan" button at the bottom right of every public page, answers visitors\u2019 questions from the site\u2019s pages. Each conversation appears here, newest first, once a visitor opens it.',
  noPage: (page: number) => `There is no page ${page}; go back to page 1.`,
  count: (count: number) => (count === 1 ? '1 conversation' : `${count} conversations`),
  anonymous: 'Visitor not signed in',
  started: (time: string) => `Started ${time}`,
  last: (time: string) => `Last message ${time}`,
  visitorMessages: (count: number) =>
    count === 1
      ? `1 visitor message of ${CHAT_MESSAGE_LIMIT}`
      : `${count} visitor messages of ${CHAT_MESSAGE_LIMIT}`,
  noQuestion: 'No question yet (Titan introduced itself)',
  unanswered: (count: number) => `${count} unanswered`,
  unansweredTitle: 'Replies where Titan said it did not know',
  transcript: 'Conversation',
  transcriptName: (time: string) => `Conversation started ${time}`,
  transcriptList: 'Messages',
  transcriptLoading: 'Loading the conversation…',
  transcriptFailed: 'Failed to get the conversation.',
  chooseOne: 'Choose a conversation to read it here.',
  close: 'Close',
  session: (id: string) => `Session ${id}`,
  visitor: 'Visitor',
  titan: 'Titan',
  notAnswered: 'Did not know',
  sources: 'Sources',
  origin: {
    visitor: 'Visitor',
    introduction: 'Introduction',
    'built-in': 'Built-in',
    'small-talk': 'Small talk',
    model: 'Model',
    limit: 'Limit',
  } satisfies Record<ChatOrigin, string>,
  originTitle: {
    visitor: 'Written by the visitor',
    introduction: 'Titan introduces itself on the first open',
    'built-in': 'Answered from the site\u2019s pages by the built-in search',
    'small-talk': 'A greeting or thanks answered in kind (not a question)',
    model: 'Written by the configured language model from the site\u2019s pages',
    limit: `The fixed reply after ${CHAT_MESSAGE_LIMIT} visitor messages`,
  } satisfies Record<ChatOrigin, string>,
} as const;
