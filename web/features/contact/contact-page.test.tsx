import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { contactMessages } from '#common/contract/contact.ts';
import { formMessages, siteMessages } from '#common/messages.ts';
import { ContactPage } from './contact-page.tsx';
import { renderPage } from '#web/test/render-page.tsx';
import { fail, fakeApi, ok, raw, transportError } from '#web/test/fake-api.ts';
import { sampleVerification } from '#web/session/test-session.ts';

const api = fakeApi();
const fetchMock = api.fetch;

const detail = {
  email: 'ada@example.com',
  emailVerified: true,
  dateEmailVerified: null,
  phone: null,
  phoneVerified: false,
  datePhoneVerified: null,
  totp: false,
  totpVerified: false,
  dateTotpVerified: null,
  firstName: 'Ada',
  lastName: 'Lovelace',
  preferred2fa: 'Email',
} as const;

const renderContact = () =>
  renderPage(<ContactPage />, {
    at: '/contact-us',
    session: { ...sampleVerification, user: { ...sampleVerification.user, user_Details: [detail] } },
  });

/** A field by its label; the required marker after the label's text is left out. */
function field(label: string): HTMLInputElement | HTMLTextAreaElement {
  return screen.getByLabelText(new RegExp(`^${label}\\s*\\*?$`), { selector: 'input, textarea' });
}

function type(label: string, value: string) {
  fireEvent.change(field(label), { target: { value } });
}

/** The message shown under a field (Mantine links it with aria-describedby), or null. */
function errorOf(label: string): string | null {
  const ids = (field(label).getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  for (const id of ids) {
    const node = document.getElementById(id);
    if (node?.className.includes('error')) return node.textContent;
  }
  return null;
}

const send = () => fireEvent.click(screen.getByRole('button', { name: 'Send message' }));

function contactCalls(): unknown[] {
  return fetchMock.mock.calls
    .filter(([url, init]) => url === '/api/contact' && init.method === 'POST')
    .map(([, init]) => JSON.parse(String(init.body)));
}

afterEach(() => {
  notifications.clean();
});

describe('the contact page', () => {
  it('shows From prefilled with the account’s e-mail and read-only, then Subject and Message', () => {
    renderContact();
    expect(screen.getByRole('heading', { level: 1, name: 'Contact Us' })).toBeTruthy();
    const from = field('From');
    expect(from.value).toBe('ada@example.com');
    expect(from.readOnly).toBe(true);
    expect(field('Subject').value).toBe('');
    expect(field('Message').tagName).toBe('TEXTAREA');
  });

  it('shows no message before a field is touched or changed', () => {
    renderContact();
    fireEvent.focus(field('Subject'));
    expect(errorOf('Subject')).toBeNull();
    expect(errorOf('Message')).toBeNull();
  });

  it.each([
    ['Subject', formMessages.required('Subject')],
    ['Message', formMessages.required('Message')],
  ])('%s left empty says %j', (label, message) => {
    renderContact();
    fireEvent.blur(field(label));
    expect(errorOf(label)).toBe(message);
  });

  it.each([
    ['Subject', 51, siteMessages.subjectMax],
    ['Message', 1001, siteMessages.messageMax],
  ])('%s of %i characters says %j', (label, length, message) => {
    renderContact();
    type(label, 'x'.repeat(length));
    expect(errorOf(label)).toBe(message);
  });

  it('counts a subject of spaces only as empty', () => {
    renderContact();
    type('Subject', '   ');
    expect(errorOf('Subject')).toBe(formMessages.required('Subject'));
  });

  it('accepts a subject of 50 and a message of 1000 characters, and counts them', () => {
    renderContact();
    type('Subject', 'x'.repeat(50));
    type('Message', 'y'.repeat(1000));
    expect(errorOf('Subject')).toBeNull();
    expect(errorOf('Message')).toBeNull();
    expect(screen.getByText('50 / 50 characters')).toBeTruthy();
    expect(screen.getByText('1000 / 1000 characters')).toBeTruthy();
  });

  it('on submit of an empty form marks both fields and sends nothing', () => {
    renderContact();
    send();
    expect(errorOf('Subject')).toBe(formMessages.required('Subject'));
    expect(errorOf('Message')).toBe(formMessages.required('Message'));
    expect(document.activeElement).toBe(field('Subject'));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends subject and message only (never From), shows the server’s sentence and empties the form', async () => {
    api.on('POST', '/api/contact', ok({ id: 7, delivered: true }, contactMessages.sent));
    renderContact();
    type('Subject', '  Migration help ');
    type('Message', 'We run PostgreSQL 12.');
    send();
    expect(await screen.findByText(contactMessages.sent)).toBeTruthy();
    expect(contactCalls()).toEqual([{ subject: 'Migration help', message: 'We run PostgreSQL 12.' }]);
    await waitFor(() => expect(field('Subject').value).toBe(''));
    expect(field('Message').value).toBe('');
    expect(field('From').value).toBe('ada@example.com');
  });

  it('says honestly when the message was stored but not mailed', async () => {
    api.on('POST', '/api/contact', ok({ id: 8, delivered: false }, contactMessages.storedNotMailed));
    renderContact();
    type('Subject', 'Hello');
    type('Message', 'Text');
    send();
    expect(await screen.findByText(contactMessages.storedNotMailed)).toBeTruthy();
  });

  it('shows the server’s message on a refusal and keeps the text', async () => {
    api.on('POST', '/api/contact', fail(429, 'Too many messages. Try again in a minute.'));
    renderContact();
    type('Subject', 'Hello');
    type('Message', 'Keep me');
    send();
    expect(await screen.findByText('Too many messages. Try again in a minute.')).toBeTruthy();
    expect(field('Subject').value).toBe('Hello');
    expect(field('Message').value).toBe('Keep me');
  });

  it('says “Failed to Contact Us... Please try again.” when the server said nothing, and keeps the text', async () => {
    api.on('POST', '/api/contact', raw(new Response('', { status: 502 })));
    renderContact();
    type('Subject', 'Hello');
    type('Message', 'Keep me');
    send();
    expect(await screen.findByText(siteMessages.contactFailed)).toBeTruthy();
    expect(field('Message').value).toBe('Keep me');
  });

  it('says the same when the network fails', async () => {
    api.on('POST', '/api/contact', transportError(new TypeError('Failed to fetch')));
    renderContact();
    type('Subject', 'Hello');
    type('Message', 'Keep me');
    send();
    expect(await screen.findByText(/Failed to Contact Us|Failed to fetch/)).toBeTruthy();
    expect(field('Subject').value).toBe('Hello');
  });
});
