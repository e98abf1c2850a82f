import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactMessages as cm, type ContactMessage } from '#common/contract/contact.ts';
import { siteMessages } from '#common/messages.ts';
import { buildAdmin, buildUser, withXsrf, type TestUser } from '#server/test/factories.ts';
import { startMailSink, type MailSink } from '#server/test/mail-sink.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';

const TEAM = 'team@dbui.test';

/** A port on 127.0.0.1 where nothing listens (an SMTP server that is down). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function caller(t: TestApp) {
  return (method: 'GET' | 'POST', url: string, user: TestUser | null, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: user?.headers ?? {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
}

async function auditActions(t: TestApp, action: string) {
  return t.store.db.selectFrom('audit_log').selectAll().where('action', '=', action).execute();
}

describe('the contact form with a working mail server', () => {
  let sink: MailSink;
  let t: TestApp;
  let admin: TestUser;
  let user: TestUser;
  let call: ReturnType<typeof caller>;

  beforeAll(async () => {
    sink = await startMailSink();
    t = await buildTestApp({ env: { SMTP_URL: sink.url, CONTACT_TO: TEAM } });
    call = caller(t);
    admin = await buildAdmin(t, { username: 'boss' });
    user = await buildUser(t, { username: 'visitor' });
    await t.store.db
      .updateTable('users')
      .set({ first_name: 'Vera', last_name: 'Visitor' })
      .where('id', '=', user.userId)
      .execute();
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  it('stores the message, mails it to CONTACT_TO from the account (never from the body) and audits it', async () => {
    const answer = await call('POST', '/api/contact', user, {
      subject: 'A demo of DBUI',
      message: 'Could we see DBUI on our\nPostgreSQL warehouse?',
      from: 'forged@evil.test',
      fromEmail: 'forged@evil.test',
    });
    expect(answer.statusCode).toBe(200);
    const body = answer.json();
    expect(body).toMatchObject({ isSuccess: true, message: cm.sent, data: { delivered: true } });
    const mail = await sink.next(TEAM);
    expect(mail.raw).toContain('Subject: Contact: A demo of DBUI');
    expect(mail.raw).toContain('Vera Visitor <visitor@example.com>');
    expect(mail.raw).toContain('PostgreSQL warehouse?');
    expect(mail.raw).not.toContain('forged@evil.test');
    const row = await t.store.db
      .selectFrom('contact_messages')
      .selectAll()
      .where('id', '=', body.data.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      user_id: user.userId,
      from_email: 'visitor@example.com',
      from_name: 'Vera Visitor',
      mail_status: 'sent',
      mail_error: null,
    });
    expect(await auditActions(t, 'contact.sent')).toMatchObject([
      { user_id: user.userId, target: `contact:${body.data.id}` },
    ]);
  });

  it('refuses the signed out and checks the fields with the spec messages', async () => {
    const signedOut = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: await withXsrf(t),
      payload: { subject: 'x', message: 'y' },
    });
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json().message).toBe('Sign in to continue.');
    const cases: [unknown, string][] = [
      [{ message: 'Hello' }, 'Subject is required.'],
      [{ subject: '   ', message: 'Hello' }, 'Subject is required.'],
      [{ subject: 'Hi' }, 'Message is required.'],
      [{ subject: 'x'.repeat(51), message: 'Hello' }, siteMessages.subjectMax],
      [{ subject: 'Hi', message: 'x'.repeat(1001) }, siteMessages.messageMax],
    ];
    for (const [payload, message] of cases) {
      // Refused calls count against the per-account limit too: each case from a fresh account.
      const refused = await call('POST', '/api/contact', await buildUser(t), payload);
      expect(refused.statusCode, message).toBe(400);
      expect(refused.json().message).toContain(message);
    }
  });

  it('limits how many messages one account sends a minute', async () => {
    const sender = await buildUser(t);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (await call('POST', '/api/contact', sender, { subject: `n${i}`, message: 'm' })).statusCode,
      );
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    // Another account is not held back by it.
    const other = await buildUser(t);
    expect((await call('POST', '/api/contact', other, { subject: 's', message: 'm' })).statusCode).toBe(200);
  });

  it('gives administrators the inbox newest first, answers by mail and archives', async () => {
    const refused = await call('GET', '/api/admin/messages', user);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Only administrators can do that.');
    expect((await call('POST', '/api/admin/messages/1/answer', user, { answer: 'x' })).statusCode).toBe(403);
    expect((await call('POST', '/api/admin/messages/1/archive', user, { archived: true })).statusCode).toBe(
      403,
    );

    const list = await call('GET', '/api/admin/messages?pageSize=100', admin);
    expect(list.statusCode).toBe(200);
    const { results, count } = list.json().data as { results: ContactMessage[]; count: number };
    expect(count).toBe(results.length);
    expect(results.at(-1)).toMatchObject({ subject: 'A demo of DBUI', fromEmail: 'visitor@example.com' });
    const ids = results.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const first = results.at(-1) as ContactMessage;

    expect(
      (await call('POST', '/api/admin/messages/1/answer', admin, { answer: ' ' })).json().message,
    ).toContain('Answer is required.');
    expect(
      (await call('POST', '/api/admin/messages/999999/answer', admin, { answer: 'Hello' })).json(),
    ).toMatchObject({ isSuccess: false, message: cm.notFound });

    const answered = await call('POST', `/api/admin/messages/${first.id}/answer`, admin, {
      answer: 'Gladly: we will call you on Monday.',
    });
    expect(answered.statusCode).toBe(200);
    expect(answered.json()).toMatchObject({
      isSuccess: true,
      message: cm.answerSent,
      data: { id: first.id, answer: 'Gladly: we will call you on Monday.' },
    });
    expect(answered.json().data.answeredAt).toEqual(expect.any(String));
    const reply = await sink.next('visitor@example.com');
    expect(reply.raw).toContain('Subject: Re: A demo of DBUI');
    expect(reply.raw).toContain('we will call you on Monday.');

    const archived = await call('POST', `/api/admin/messages/${first.id}/archive`, admin, { archived: true });
    expect(archived.json()).toMatchObject({ isSuccess: true, message: cm.archived });
    expect(archived.json().data.archivedAt).toEqual(expect.any(String));
    const inbox = (await call('GET', '/api/admin/messages?pageSize=100', admin)).json().data;
    expect(inbox.results.map((r: ContactMessage) => r.id)).not.toContain(first.id);
    const archive = (await call('GET', '/api/admin/messages?archived=true', admin)).json().data;
    expect(archive).toMatchObject({ count: 1, results: [{ id: first.id }] });
    const back = await call('POST', `/api/admin/messages/${first.id}/archive`, admin, { archived: false });
    expect(back.json()).toMatchObject({ message: cm.unarchived, data: { archivedAt: null } });
    expect(
      (await call('GET', '/api/admin/messages?page=1&pageSize=1', admin)).json().data.results,
    ).toHaveLength(1);
    expect((await call('GET', '/api/admin/messages?archived=maybe', admin)).statusCode).toBe(400);
    expect(await auditActions(t, 'contact.answered')).toHaveLength(1);
  });
});

describe('the contact form when mail does not go out', () => {
  it('stores the message and says so when the SMTP server is down, and stores answers too', async () => {
    const t = await buildTestApp({
      env: { SMTP_URL: `smtp://127.0.0.1:${await closedPort()}?ignoreTLS=true`, CONTACT_TO: TEAM },
    });
    try {
      const call = caller(t);
      const user = await buildUser(t);
      const admin = await buildAdmin(t);
      const answer = await call('POST', '/api/contact', user, { subject: 'Hello', message: 'Still there?' });
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toMatchObject({
        isSuccess: true,
        message: cm.storedNotMailed,
        data: { delivered: false },
      });
      expect(answer.body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
      const [stored] = (await call('GET', '/api/admin/messages', admin)).json().data
        .results as ContactMessage[];
      expect(stored).toMatchObject({
        subject: 'Hello',
        message: 'Still there?',
        mailStatus: 'failed',
        mailError: cm.mailReason.unreachable,
      });
      const answered = await call('POST', `/api/admin/messages/${stored?.id}/answer`, admin, {
        answer: 'Yes.',
      });
      expect(answered.statusCode).toBe(200);
      expect(answered.json()).toMatchObject({
        isSuccess: true,
        message: cm.answerStoredNotMailed,
        data: { answer: 'Yes.' },
      });
    } finally {
      await t.close();
    }
  });

  it('only stores the message without CONTACT_TO, and refuses to answer without SMTP_URL', async () => {
    const t = await buildTestApp();
    try {
      const call = caller(t);
      const user = await buildUser(t);
      const admin = await buildAdmin(t);
      const answer = await call('POST', '/api/contact', user, { subject: 'Hello', message: 'Anyone?' });
      expect(answer.json()).toMatchObject({
        isSuccess: true,
        message: cm.storedNotMailed,
        data: { delivered: false },
      });
      const [stored] = (await call('GET', '/api/admin/messages', admin)).json().data
        .results as ContactMessage[];
      expect(stored).toMatchObject({ mailStatus: 'not-configured', mailError: cm.mailReason.notConfigured });
      const refused = await call('POST', `/api/admin/messages/${stored?.id}/answer`, admin, {
        answer: 'Yes.',
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ isSuccess: false, message: cm.noMailConfigured });
      const row = await t.store.db
        .selectFrom('contact_messages')
        .select('answer')
        .where('id', '=', stored?.id ?? 0)
        .executeTakeFirstOrThrow();
      expect(row.answer).toBeNull();
    } finally {
      await t.close();
    }
  });
});
