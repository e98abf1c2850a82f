/** The administrators' inbox's own words (/admin/messages). */
export const messageTexts = {
  title: 'Messages',
  show: 'Messages shown',
  inbox: 'Inbox',
  archived: 'Archived',
  listName: (archived: boolean) => (archived ? 'Archived messages' : 'Inbox messages'),
  loading: 'Loading messages…',
  failed: 'Failed to get messages.',
  empty: (archived: boolean) =>
    archived
      ? 'No archived messages. Archived messages from the inbox appear here.'
      : 'The inbox is empty. Messages sent from the Contact Us page appear here.',
  noPage: (page: number) => `There is no page ${page}; go back to page 1.`,
  count: (count: number) => (count === 1 ? '1 message' : `${count} messages`),
  mailed: 'Mailed',
  notMailed: 'Not mailed',
  noMailConfigured: 'No mail configured',
  mailStatusLabel: 'Mail to the team',
  answered: 'Answered',
  received: (time: string) => `Received ${time}`,
  answerHeading: 'Answer',
  answeredAt: (time: string) => `Answered ${time}`,
  answerLabel: 'Your answer',
  answerAgainLabel: 'Another answer',
  answerDescription: (email: string) => `Mailed to ${email} and saved with the message.`,
  sendAnswer: 'Send answer',
  archive: 'Archive',
  unarchive: 'Move to inbox',
  archivedAt: (time: string) => `Archived ${time}`,
} as const;
