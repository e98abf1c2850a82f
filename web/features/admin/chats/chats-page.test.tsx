import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import {
  chatMessages,
  type ChatMessage,
  type ChatSummary,
  type ChatTranscript,
} from '#common/contract/chat.ts';
import { ChatsPage } from './chats-page.tsx';
import { renderPage } from '#web/test/render-page.tsx';
import { fail, fakeApi, ok } from '#web/test/fake-api.ts';

const api = fakeApi();
const fetchMock = api.fetch;

const ids = {
  signedIn: '0b6f4a3e-8a1c-4d7e-9f00-000000000003',
  anonymous: '0b6f4a3e-8a1c-4d7e-9f00-000000000002',
  introOnly: '0b6f4a3e-8a1c-4d7e-9f00-000000000001',
};

function summary(sessionId: string, extra: Partial<ChatSummary> = {}): ChatSummary {
  return {
    sessionId,
    createdAt: '2026-11-24T10:15:00.000Z',
    lastAt: '2026-11-24T10:20:00.000Z',
    visitorMessages: 2,
    firstQuestion: 'Do you migrate data?',
    userEmail: null,
    unanswered: 0,
    ...extra,
  };
}

const signedIn = summary(ids.signedIn, {
  userEmail: 'ada@example.com',
  firstQuestion: 'Can DBUI export to CSV?',
  createdAt: '2026-11-24T12:00:00.000Z',
  lastAt: '2026-11-24T12:05:00.000Z',
  visitorMessages: 3,
});
const anonymous = summary(ids.anonymous, { unanswered: 2 });
const introOnly = summary(ids.introOnly, {
  firstQuestion: null,
  visitorMessages: 0,
  createdAt: '2026-11-24T09:00:00.000Z',
  lastAt: '2026-11-24T09:00:00.000Z',
});

const at = Date.parse('2026-11-24T10:15:00.000Z') / 1000;
function chatMessage(
  id: number,
  role: ChatMessage['role'],
  origin: ChatMessage['origin'],
  text: string,
  sources: ChatMessage['sources'] = [],
): ChatMessage {
  return {
    id,
    role,
    origin,
    sources,
    createdAt: at + id * 30,
    content: [{ type: 'text', text: { value: text } }],
  };
}

const transcript: ChatTranscript = {
  ...anonymous,
  messages: [
    chatMessage(
      1,
      'assistant',
      'introduction',
      'Hello, I am Titan. I answer from [the site’s pages](/home).',
    ),
    chatMessage(2, 'user', 'visitor', 'Do you migrate data? <b>now</b>'),
    chatMessage(
      3,
      'assistant',
      'built-in',
      'Yes: see [Data migration](/services/data-migration) and [evil](javascript:alert(1)).',
      [{ title: 'Data migration', path: '/services/data-migration' }],
    ),
    chatMessage(4, 'user', 'visitor', 'What is the weather?'),
    chatMessage(5, 'assistant', 'model', 'I do not know. Ask us at [Contact us](/contact-us).'),
    chatMessage(6, 'assistant', 'limit', chatMessages.limitReply('help@example.org')),
  ],
};

function listCalls(): string[] {
  return fetchMock.mock.calls
    .map(([input]) => new URL(input, 'http://localhost'))
    .filter((url) => url.pathname === '/api/admin/chats')
    .map((url) => url.search);
}

const renderChats = (at = '/admin/chats') =>
  renderPage(<ChatsPage />, { at, path: '/admin/chats', routes: { '*': <p>Another page</p> } }).router;

function wide(matches: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: matches && query.includes('min-width: 62em'),
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }));
}

beforeEach(() => {
  api.on('GET', '/api/admin/chats', ok({ results: [signedIn, anonymous, introOnly], count: 3 }));
  api.on('GET', '/api/admin/chats/:sessionId', fail(404, chatMessages.notFound));
  api.on('GET', `/api/admin/chats/${ids.anonymous}`, ok(transcript));
});
afterEach(() => {
  notifications.clean();
});

const rows = async () =>
  within(await screen.findByRole('region', { name: 'Conversations' })).getAllByRole('button');

describe('the chats page', () => {
  it('lists the conversations newest first, 25 a page, with who, when, the first question and what went unanswered', async () => {
    renderChats();
    expect(screen.getByRole('heading', { level: 1, name: 'Chats' })).toBeTruthy();
    const [first, second, third] = await rows();
    expect(first?.textContent).toContain('ada@example.com');
    expect(first?.textContent).toContain('Can DBUI export to CSV?');
    expect(first?.textContent).toContain('3 visitor messages of 10');
    expect(first?.textContent).toMatch(/Started 24 Nov 2026/);
    expect(first?.textContent).toMatch(/Last message 24 Nov 2026/);
    expect(first?.textContent).not.toContain('unanswered');
    expect(second?.textContent).toContain('Visitor not signed in');
    expect(second?.textContent).toContain('2 unanswered');
    expect(third?.textContent).toContain('No question yet');
    expect(third?.textContent).toContain('0 visitor messages of 10');
    expect(listCalls()).toEqual(['?page=1&pageSize=25']);
    expect(screen.getByRole('navigation', { name: 'Pages' }).textContent).toContain('3 conversations');
  });

  it('keeps the page in the address', async () => {
    api.on('GET', '/api/admin/chats', ok({ results: [anonymous], count: 30 }));
    const router = renderChats('/admin/chats?page=2');
    await rows();
    expect(listCalls()).toEqual(['?page=2&pageSize=25']);
    fireEvent.click(screen.getByRole('button', { name: 'Page 1' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(listCalls()).toContain('?page=1&pageSize=25'));
  });

  it('says there are no conversations yet and where Titan is', async () => {
    api.on('GET', '/api/admin/chats', ok({ results: [], count: 0 }));
    renderChats();
    expect(await screen.findByText('No conversations yet.')).toBeTruthy();
    expect(screen.getByText(/every public page/)).toBeTruthy();
  });

  it('says when the list could not be read, with the server’s reason', async () => {
    api.on('GET', '/api/admin/chats', fail(503, 'The app store is not answering.'));
    renderChats();
    expect(await screen.findByText('The app store is not answering.')).toBeTruthy();
    expect(screen.getAllByText('Failed to get the conversations.').length).toBeGreaterThan(0);
  });

  it('opens a conversation in a drawer on smaller screens: every message with its time, role, origin, links and sources', async () => {
    const router = renderChats();
    const [, second] = await rows();
    fireEvent.click(second!);
    const drawer = await screen.findByRole('dialog', { name: /Conversation started 24 Nov 2026/ });
    expect(router.state.location.search).toBe(`?chat=${ids.anonymous}`);
    const list = await within(drawer).findByRole('list', { name: 'Messages' });
    // The messages themselves, not the sources listed inside them.
    const items = Array.from(list.children) as HTMLElement[];
    expect(items).toHaveLength(6);
    expect(items.map((item) => item.getAttribute('data-role'))).toEqual([
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'assistant',
    ]);
    expect(items[0]?.textContent).toContain('Introduction');
    expect(items[1]?.textContent).toContain('Visitor');
    expect(items[2]?.textContent).toContain('Built-in');
    expect(items[4]?.textContent).toContain('Model');
    expect(items[4]?.textContent).toContain('Did not know');
    expect(items[5]?.textContent).toContain('Limit');
    expect(items[0]?.querySelector('time')?.getAttribute('dateTime')).toBe('2026-11-24T10:15:30.000Z');
    // HTML in a message is text; Markdown links to this site are links, links elsewhere stay text.
    expect(items[1]?.querySelector('b')).toBeNull();
    expect(items[1]?.textContent).toContain('<b>now</b>');
    expect(
      within(items[2]!)
        .getAllByRole('link', { name: 'Data migration' })
        .map((a) => a.getAttribute('href')),
    ).toEqual(['/services/data-migration', '/services/data-migration']);
    expect(within(items[2]!).getByRole('list', { name: 'Sources' })).toBeTruthy();
    expect(within(items[2]!).queryByRole('link', { name: 'evil' })).toBeNull();
    expect(within(items[5]!).getByRole('link', { name: 'Contact us' }).getAttribute('href')).toBe(
      '/contact-us',
    );
    expect(within(items[5]!).getByRole('link', { name: /@/ }).getAttribute('href')).toMatch(/^mailto:/);
    fireEvent.click(within(drawer).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('opens a conversation beside the list on a wide screen, from the address too', async () => {
    wide(true);
    renderChats(`/admin/chats?chat=${ids.anonymous}`);
    const card = await screen.findByRole('region', { name: 'Conversation' });
    expect(await within(card).findByRole('heading', { level: 2, name: /Conversation started/ })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    const [, second] = await rows();
    expect(second?.getAttribute('aria-current')).toBe('true');
  });

  it('says when a conversation could not be read', async () => {
    renderChats(`/admin/chats?chat=${ids.signedIn}`);
    expect(await screen.findByText(chatMessages.notFound)).toBeTruthy();
  });
});
