import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { chatMessages, type ChatMessage, type ChatReply, type ChatSession } from '#common/contract/chat.ts';
import { requestMessages, siteMessages } from '#common/messages.ts';
import { CHAT_STORAGE_KEY } from './chat-storage.ts';
import { ChatWidget } from './chat-widget.tsx';
import { renderPage } from '#web/test/render-page.tsx';
import { chatStream, fail, fakeApi, liveChatStream, ok } from '#web/test/fake-api.ts';

// jsdom has no document.fonts; Mantine's autosizing message box listens to it.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: { addEventListener: () => undefined, removeEventListener: () => undefined },
  });
}

const SESSION = '6f1c2b8e-3a4d-4c5e-9f60-718293a4b5c6';
const INTRO = 'Hello, I am Titan. I answer from the pages of this site.';

const api = fakeApi();
const fetchMock = api.fetch;

let nextId = 1;
function message(role: 'user' | 'assistant', text: string, extra: Partial<ChatMessage> = {}): ChatMessage {
  return {
    id: nextId++,
    role,
    content: [{ type: 'text', text: { value: text } }],
    createdAt: 1_760_000_000,
    origin: role === 'user' ? 'visitor' : 'built-in',
    sources: [],
    ...extra,
  };
}

function session(messages: ChatMessage[], remaining = 10): ChatSession {
  return { sessionId: SESSION, messages, remaining };
}

function reply(question: string, text: string, remaining = 9, extra: Partial<ChatMessage> = {}): ChatReply {
  return { message: message('user', question), reply: message('assistant', text, extra), remaining };
}

function calls(path: string): { init: RequestInit; body: unknown }[] {
  return fetchMock.mock.calls
    .filter(([input]) => input === path)
    .map(([, init]) => ({ init, body: init.body === undefined ? undefined : JSON.parse(String(init.body)) }));
}
const startCalls = () => calls('/api/chat/start');
const addCalls = () => calls(`/api/chat/${SESSION}/add`);

const renderWidget = (at = '/home') =>
  renderPage(
    <>
      <p>page</p>
      <ChatWidget />
    </>,
    { at },
  ).router;
const ADD = `/api/chat/${SESSION}/add`;

const launcher = () => screen.getByRole('button', { name: 'Chat with Titan' });
const dialog = () => screen.findByRole('dialog', { name: 'Chat with Titan' });
const input = () => screen.getByRole('textbox', { name: 'Message to Titan' });
const sendButton = () => screen.getByRole('button', { name: 'Send' });
const log = () => screen.getByRole('log');

async function openWithIntroduction() {
  renderWidget();
  fireEvent.click(launcher());
  await dialog();
  await within(log()).findByText(INTRO);
}

function type(value: string) {
  fireEvent.change(input(), { target: { value } });
}

beforeEach(() => {
  nextId = 1;
  window.sessionStorage.clear();
  api.on('POST', '/api/chat/start', ok(session([message('assistant', INTRO, { origin: 'introduction' })])));
});
afterEach(() => {
  notifications.clean();
});

describe("Titan's widget", () => {
  it('is a round button named Chat with Titan that asks nothing until it is opened', () => {
    renderWidget();
    expect(launcher()).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('on first open starts with no messages, shows the introduction and puts focus in the message box', async () => {
    await openWithIntroduction();
    expect(startCalls().map((call) => call.body)).toEqual([{ messages: [] }]);
    expect(startCalls()[0]?.init.method).toBe('POST');
    await waitFor(() => expect(document.activeElement).toBe(input()));
    expect(JSON.parse(window.sessionStorage.getItem(CHAT_STORAGE_KEY) ?? 'null')).toEqual({
      sessionId: SESSION,
      open: true,
    });
  });

  it('ignores an empty or whitespace-only message', async () => {
    await openWithIntroduction();
    type('   \n  ');
    expect((sendButton() as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(input(), { key: 'Enter' });
    fireEvent.click(sendButton());
    expect(addCalls()).toHaveLength(0);
  });

  it('blocks the box while the reply streams in, then shows the final text', async () => {
    const stream = liveChatStream();
    api.on('POST', ADD, stream.answer);
    document.cookie = 'XSRF-TOKEN=xsrf-value; path=/';
    await openWithIntroduction();
    type('What do you offer?');
    fireEvent.keyDown(input(), { key: 'Enter' });

    await waitFor(() => expect(addCalls()).toHaveLength(1));
    const call = addCalls()[0];
    expect(call?.body).toEqual({ role: 'user', content: 'What do you offer?' });
    const headers = new Headers(call?.init.headers);
    expect(headers.get('Accept')).toBe('application/x-ndjson');
    expect(headers.get('X-XSRF-TOKEN')).toBe('xsrf-value');
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(within(log()).getByText('What do you offer?')).toBeTruthy();
    expect((input() as HTMLTextAreaElement).disabled).toBe(true);
    expect((input() as HTMLTextAreaElement).value).toBe('');
    expect(within(log()).getByText('Titan is writing…')).toBeTruthy();

    // A second message cannot be sent meanwhile.
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(addCalls()).toHaveLength(1);

    act(() => stream.line({ type: 'delta', text: 'We build ' }));
    expect(await within(log()).findByText(/^We build/)).toBeTruthy();
    act(() => stream.line({ type: 'delta', text: 'data platforms' }));
    expect(await within(log()).findByText(/We build data platforms/)).toBeTruthy();
    expect((input() as HTMLTextAreaElement).disabled).toBe(true);

    act(() => {
      stream.line({
        type: 'done',
        data: reply('What do you offer?', 'Data engineering and migrations. See [Services](/services).', 9, {
          sources: [{ title: 'Data engineering', path: '/services/data-engineering' }],
        }),
      });
      stream.end();
    });
    expect(await within(log()).findByText(/Data engineering and migrations/)).toBeTruthy();
    expect(within(log()).queryByText(/We build data platforms/)).toBeNull();
    expect(within(log()).getByRole('link', { name: 'Services' }).getAttribute('href')).toBe('/services');
    expect(within(log()).getByRole('link', { name: 'Data engineering' }).getAttribute('href')).toBe(
      '/services/data-engineering',
    );
    await waitFor(() => expect((input() as HTMLTextAreaElement).disabled).toBe(false));
  });

  it('renders links to the site and to https addresses, and nothing else', async () => {
    api.on(
      'POST',
      '/api/chat/start',
      ok(
        session([
          message(
            'assistant',
            'Read [About us](/about-us) and https://example.com/guide. <b>bold</b> [bad](javascript:alert(1)) <img src=x onerror=alert(1)>',
            { origin: 'introduction' },
          ),
        ]),
      ),
    );
    renderWidget();
    fireEvent.click(launcher());
    await dialog();
    const site = await within(log()).findByRole('link', { name: 'About us' });
    expect(site.getAttribute('href')).toBe('/about-us');
    expect(site.getAttribute('target')).toBeNull();
    const external = within(log()).getByRole('link', {
      name: /^https:\/\/example\.com\/guide ?\(opens in a new tab\)$/,
    });
    expect(external.getAttribute('href')).toBe('https://example.com/guide');
    expect(external.getAttribute('target')).toBe('_blank');
    expect(external.getAttribute('rel')).toContain('noopener');
    expect(log().textContent).toContain('<b>bold</b>');
    expect(log().querySelector('b, img')).toBeNull();
    expect(within(log()).queryByRole('link', { name: 'bad' })).toBeNull();
    expect(log().querySelector('a[href^="javascript"]')).toBeNull();
  });

  it('at the limit shows the limit reply as Titan last bubble, blocks the box and offers a new chat', async () => {
    api.on(
      'POST',
      '/api/chat/start',
      ok(session([message('assistant', INTRO, { origin: 'introduction' })], 1)),
    );
    api.on(
      'POST',
      ADD,
      chatStream(
        { type: 'delta', text: 'Yes.' },
        { type: 'done', data: reply('Last one?', 'Yes, we do.', 0) },
      ),
    );
    await openWithIntroduction();
    type('Last one?');
    fireEvent.click(sendButton());
    expect(await within(log()).findByText('Yes, we do.')).toBeTruthy();
    const bubbles = log().textContent;
    expect(
      bubbles.endsWith(chatMessages.limitReply(null).replace('[Contact us](/contact-us)', 'Contact us')),
    ).toBe(true);
    expect(within(log()).getByRole('link', { name: 'Contact us' }).getAttribute('href')).toBe('/contact-us');
    expect((input() as HTMLTextAreaElement).disabled).toBe(true);
    expect((sendButton() as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'New chat' }));
    await waitFor(() => expect(startCalls()).toHaveLength(2));
    expect(startCalls()[1]?.body).toEqual({ messages: [] });
    await waitFor(() => expect((input() as HTMLTextAreaElement).disabled).toBe(false));
    expect(within(log()).queryByText('Yes, we do.')).toBeNull();
  });

  it("says 'Failed to start the chat.' when the introduction fails, and a message then starts the chat", async () => {
    let failing = true;
    api.on('POST', '/api/chat/start', (request) => {
      // The server's failure says what happened (the introduction's toast keeps its own title).
      if (failing) return fail(500, requestMessages.serverFailed('req-1'));
      const body = request.body as { messages: unknown[] };
      expect(request.url).toBe('/api/chat/start');
      expect(body.messages).toEqual([{ role: 'user', content: 'Hello?' }]);
      return ok(session([message('user', 'Hello?'), message('assistant', 'Hello, visitor.')], 9));
    });
    renderWidget();
    fireEvent.click(launcher());
    await dialog();
    expect(await screen.findByText(siteMessages.chatStartFailed)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();

    type('Hello?');
    failing = false;
    fireEvent.click(sendButton());
    expect(await within(log()).findByText('Hello, visitor.')).toBeTruthy();
  });

  it("says 'Failed to add message to the chat.' and keeps the message in the box", async () => {
    api.on(
      'POST',
      ADD,
      chatStream({ type: 'delta', text: 'Partly' }, { type: 'error', message: 'Titan could not answer.' }),
    );
    await openWithIntroduction();
    type('Will this fail?');
    fireEvent.click(sendButton());
    expect(await screen.findByText(siteMessages.chatAddFailed)).toBeTruthy();
    expect(screen.getByText(/Titan could not answer\./)).toBeTruthy();
    await waitFor(() => expect((input() as HTMLTextAreaElement).value).toBe('Will this fail?'));
    expect((input() as HTMLTextAreaElement).disabled).toBe(false);
    expect(within(log()).queryByText('Will this fail?')).toBeNull();
  });

  it('after a reload reads the stored conversation back and shows it open', async () => {
    window.sessionStorage.setItem(CHAT_STORAGE_KEY, JSON.stringify({ sessionId: SESSION, open: true }));
    api.on('GET', `/api/chat/${SESSION}`, (request) => {
      expect(request.method).toBe('GET');
      expect(request.url).toBe(`/api/chat/${SESSION}`);
      return ok(
        session(
          [
            message('assistant', INTRO),
            message('user', 'Earlier question'),
            message('assistant', 'Earlier answer'),
          ],
          9,
        ),
      );
    });
    renderWidget();
    await dialog();
    expect(await within(log()).findByText('Earlier answer')).toBeTruthy();
    expect(within(log()).getByText('Earlier question')).toBeTruthy();
    expect(startCalls()).toHaveLength(0);
  });

  it('starts afresh without a toast when the stored chat is no longer known', async () => {
    window.sessionStorage.setItem(CHAT_STORAGE_KEY, JSON.stringify({ sessionId: SESSION, open: true }));
    api.on('GET', `/api/chat/${SESSION}`, fail(404, chatMessages.notFound));
    renderWidget();
    await dialog();
    expect(await within(log()).findByText(INTRO)).toBeTruthy();
    expect(startCalls().map((call) => call.body)).toEqual([{ messages: [] }]);
    expect(screen.queryByText(chatMessages.notFound)).toBeNull();
  });

  it('minimizes on Escape, gives focus back to the button and keeps the conversation', async () => {
    await openWithIntroduction();
    fireEvent.keyDown(input(), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(launcher()));
    expect(JSON.parse(window.sessionStorage.getItem(CHAT_STORAGE_KEY) ?? 'null')).toMatchObject({
      open: false,
    });
    fireEvent.click(launcher());
    expect(await within(log()).findByText(INTRO)).toBeTruthy();
    expect(startCalls()).toHaveLength(1);
  });

  it.each(['/db/main', '/admin/users', '/cc'])('is not shown at %s', (path) => {
    renderWidget(path);
    expect(screen.queryByRole('button', { name: 'Chat with Titan' })).toBeNull();
  });
});
