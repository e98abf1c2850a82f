import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { contactMessages, type ContactMessage } from '#common/contract/contact.ts';
import { formMessages } from '#common/messages.ts';
import { MessagesPage } from './messages-page.tsx';
import { renderPage } from '#web/test/render-page.tsx';
import { fail, fakeApi, ok } from '#web/test/fake-api.ts';

const api = fakeApi();
const fetchMock = api.fetch;

function message(id: number, extra: Partial<ContactMessage> = {}): ContactMessage {
  return {
    id,
    fromEmail: `person${id}@example.com`,
    fromName: null,
    subject: `Subject ${id}`,
    message: `Message ${id}\nsecond line`,
    createdAt: '2026-11-24T10:15:00.000Z',
    mailStatus: 'sent',
    mailError: null,
    answer: null,
    answeredAt: null,
    archivedAt: null,
    ...extra,
  };
}

const mailed = message(3, { fromName: 'Ada Lovelace', fromEmail: 'ada@example.com' });
const failed = message(2, { mailStatus: 'failed', mailError: contactMessages.mailReason.unreachable });
const unconfigured = message(1, {
  mailStatus: 'not-configured',
  mailError: contactMessages.mailReason.notConfigured,
  answer: 'Thanks, done.',
  answeredAt: '2026-11-24T11:00:00.000Z',
});

function listCalls(): string[] {
  return fetchMock.mock.calls
    .map(([input]) => new URL(input, 'http://localhost'))
    .filter((url) => url.pathname === '/api/admin/messages')
    .map((url) => url.search);
}

function posts(path: string): unknown[] {
  return fetchMock.mock.calls
    .filter(([input, init]) => input === path && init.method === 'POST')
    .map(([, init]) => JSON.parse(String(init.body)));
}

const renderMessages = (at = '/admin/messages') =>
  renderPage(<MessagesPage />, { at, path: '/admin/messages' }).router;

const row = (name: RegExp) => screen.findByRole('button', { name });

beforeEach(() => {
  api.on('GET', '/api/admin/messages', ok({ results: [mailed, failed, unconfigured], count: 3 }));
});
afterEach(() => {
  notifications.clean();
});

describe('the messages page', () => {
  it('lists the inbox newest first with who, subject, time and the mail status', async () => {
    renderMessages();
    expect(screen.getByRole('heading', { level: 1, name: 'Messages' })).toBeTruthy();
    const list = await screen.findByRole('region', { name: 'Inbox messages' });
    const rows = within(list).getAllByRole('button', { name: /Subject \d/ });
    expect(rows.map((r) => /Subject (\d)/.exec(r.textContent)?.[1])).toEqual(['3', '2', '1']);
    expect(rows[0]?.textContent).toContain('Ada Lovelace');
    expect(rows[0]?.textContent).toContain('ada@example.com');
    expect(rows[0]?.textContent).toContain('Mailed');
    expect(rows[1]?.textContent).toContain(`Not mailed${contactMessages.mailReason.unreachable}`);
    expect(rows[2]?.textContent).toContain('No mail configured');
    expect(rows[2]?.textContent).toContain('Answered');
    expect(listCalls()).toEqual(['?page=1&pageSize=20&archived=false']);
    expect(screen.getByRole('navigation', { name: 'Pages' }).textContent).toContain('3 messages');
  });

  it('switches to the archive, written in the address', async () => {
    const router = renderMessages();
    await row(/Subject 3/);
    fireEvent.click(screen.getByRole('radio', { name: 'Archived' }));
    await screen.findByRole('region', { name: 'Archived messages' });
    expect(router.state.location.search).toBe('?archived=1');
    expect(listCalls()).toContain('?page=1&pageSize=20&archived=true');
  });

  it('says when a list is empty', async () => {
    api.on('GET', '/api/admin/messages', ok({ results: [], count: 0 }));
    renderMessages('/admin/messages?archived=1');
    expect(await screen.findByText(/No archived messages/)).toBeTruthy();
  });

  it('says when the list could not be read', async () => {
    api.on('GET', '/api/admin/messages', fail(503, 'The app store is not answering.'));
    renderMessages();
    expect(await screen.findByText('The app store is not answering.')).toBeTruthy();
    expect(screen.getAllByText('Failed to get messages.').length).toBeGreaterThan(0);
  });

  it('opens a message to read it whole, with its answer', async () => {
    renderMessages();
    fireEvent.click(await row(/Subject 1/));
    const answerBox = await screen.findByRole('region', { name: 'Answer' });
    expect(answerBox.textContent).toContain('Thanks, done.');
    expect(screen.getByText(/Message 1/).textContent).toBe('Message 1\nsecond line');
  });

  it('requires an answer before sending it', async () => {
    renderMessages();
    fireEvent.click(await row(/Subject 3/));
    const form = await screen.findByRole('form', { name: 'Answer to message 3' });
    fireEvent.click(within(form).getByRole('button', { name: 'Send answer' }));
    expect(within(form).getByText(formMessages.required('Answer'))).toBeTruthy();
    expect(posts('/api/admin/messages/3/answer')).toEqual([]);
  });

  it('sends an answer and shows the server’s sentence', async () => {
    renderMessages();
    fireEvent.click(await row(/Subject 3/));
    api.on(
      'POST',
      '/api/admin/messages/3/answer',
      ok({ ...mailed, answer: 'Hello' }, contactMessages.answerSent),
    );
    api.on('GET', '/api/admin/messages', ok({ results: [mailed], count: 1 }));
    const form = await screen.findByRole('form', { name: 'Answer to message 3' });
    fireEvent.change(within(form).getByRole('textbox'), { target: { value: ' Hello ' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Send answer' }));
    expect(await screen.findByText(contactMessages.answerSent)).toBeTruthy();
    expect(posts('/api/admin/messages/3/answer')).toEqual([{ answer: 'Hello' }]);
  });

  it('shows a refusal (no mail configured) and keeps the answer typed', async () => {
    renderMessages();
    fireEvent.click(await row(/Subject 3/));
    api.on('POST', '/api/admin/messages/3/answer', fail(409, contactMessages.noMailConfigured));
    api.on('GET', '/api/admin/messages', ok({ results: [mailed], count: 1 }));
    const form = await screen.findByRole('form', { name: 'Answer to message 3' });
    fireEvent.change(within(form).getByRole('textbox'), { target: { value: 'Hello' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Send answer' }));
    expect(await screen.findByText(contactMessages.noMailConfigured)).toBeTruthy();
    expect((within(form).getByRole('textbox') as HTMLTextAreaElement).value).toBe('Hello');
  });

  it('archives a message with the server’s sentence', async () => {
    renderMessages();
    fireEvent.click(await row(/Subject 2/));
    api.on(
      'POST',
      '/api/admin/messages/2/archive',
      ok({ ...failed, archivedAt: '2026-11-24T12:00:00.000Z' }, contactMessages.archived),
    );
    api.on('GET', '/api/admin/messages', ok({ results: [mailed, unconfigured], count: 2 }));
    fireEvent.click(await screen.findByRole('button', { name: 'Archive' }));
    expect(await screen.findByText(contactMessages.archived)).toBeTruthy();
    expect(posts('/api/admin/messages/2/archive')).toEqual([{ archived: true }]);
    await waitFor(() => expect(screen.queryByRole('button', { name: /Subject 2/ })).toBeNull());
  });

  it('moves an archived message back to the inbox', async () => {
    api.on(
      'GET',
      '/api/admin/messages',
      ok({ results: [{ ...mailed, archivedAt: '2026-11-24T12:00:00.000Z' }], count: 1 }),
    );
    // The server answers the message moved back (the list's answer stood here before).
    api.on(
      'POST',
      '/api/admin/messages/3/archive',
      ok({ ...mailed, archivedAt: null }, contactMessages.unarchived),
    );
    renderMessages('/admin/messages?archived=1');
    fireEvent.click(await row(/Subject 3/));
    fireEvent.click(await screen.findByRole('button', { name: 'Move to inbox' }));
    await waitFor(() => expect(posts('/api/admin/messages/3/archive')).toEqual([{ archived: false }]));
  });
});
