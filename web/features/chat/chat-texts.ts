/** The chat widget's own words (the spec's title and toasts are in common/messages.ts siteMessages). */
export const chatTexts = {
  minimize: 'Minimize chat',
  messages: 'Conversation with Titan',
  visitor: 'You',
  titan: 'Titan',
  input: 'Message to Titan',
  placeholder: 'Ask Titan a question…',
  send: 'Send',
  newChat: 'New chat',
  typing: 'Titan is writing…',
  starting: 'Starting the chat…',
  sources: 'Sources',
  count: (length: number, max: number) => `${length} / ${max} characters`,
  /** After a failed start: what the visitor can do. */
  startAgain: 'Try again',
  startFailedHint: 'Titan could not be reached. Try again, or write your question below and send it.',
  /** The toast's second line: the message is not lost. */
  keptInInput: 'Your message is still in the box: send it again in a moment.',
  startHelp: 'Check your connection and open the chat again in a moment.',
} as const;
