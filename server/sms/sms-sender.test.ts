import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '#server/test/temp-dir.ts';
import { codeSms, createSmsSender } from './sms-sender.ts';

interface Seen {
  method: string | undefined;
  url: string | undefined;
  headers: http.IncomingHttpHeaders;
  form: Record<string, string>;
}

/** A Twilio-compatible Messages endpoint on 127.0.0.1 answering what `answer` says. */
async function startProvider(answer: (seen: Seen) => { status: number; body: string; type?: string } | null) {
  const seen: Seen[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry: Seen = {
        method: request.method,
        url: request.url,
        headers: request.headers,
        form: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))),
      };
      seen.push(entry);
      const reply = answer(entry);
      if (!reply) return; // never answers
      response.writeHead(reply.status, { 'content-type': reply.type ?? 'application/json' });
      response.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const messagesPath = '/2010-04-01/Accounts/AC123/Messages.json';
const silentLog = { info: () => {} };

describe('the SMS sender with a provider', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it("posts To, From and Body as a form with Basic auth taken from the URL, as Twilio's API expects", async () => {
    const provider = await startProvider(() => ({
      status: 201,
      body: JSON.stringify({ sid: 'SM0001', status: 'queued' }),
    }));
    cleanups.push(provider.close);
    const logged: object[] = [];
    const sender = createSmsSender(
      {
        smsUrl: `http://AC123:t%40ken@127.0.0.1:${provider.port}${messagesPath}`,
        smsFrom: '+15550000000',
        dataDir: '/nonexistent',
      },
      { info: (obj) => logged.push(obj) },
    );
    await sender.send({ to: '+15551234567', body: codeSms('123456', 15) });

    expect(provider.seen).toHaveLength(1);
    const request = provider.seen[0]!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe(messagesPath);
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from('AC123:t@ken').toString('base64')}`);
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request.form).toEqual({
      To: '+15551234567',
      From: '+15550000000',
      Body: 'Your DBUI code is 123456. It expires in 15 minutes.',
    });
    expect(logged).toEqual([{ to: '+15551234567', id: 'SM0001' }]);
  });

  it("turns an error answer into an error with the provider's message", async () => {
    const provider = await startProvider(() => ({
      status: 400,
      body: JSON.stringify({
        code: 21211,
        message: "The 'To' number +1555 is not a valid phone number.",
        more_info: 'https://www.twilio.com/docs/errors/21211',
        status: 400,
      }),
    }));
    cleanups.push(provider.close);
    const sender = createSmsSender(
      { smsUrl: `http://AC123:secret@127.0.0.1:${provider.port}${messagesPath}`, smsFrom: '+1', dataDir: '' },
      silentLog,
    );
    const failure = sender.send({ to: '+1555', body: 'x' });
    await expect(failure).rejects.toThrow(
      `The SMS provider 127.0.0.1:${provider.port} refused the message to +1555 (HTTP 400): The 'To' number +1555 is not a valid phone number. (code 21211)`,
    );
    await expect(failure).rejects.not.toThrow(/secret/);
  });

  it('says what happened when the answer is not JSON', async () => {
    const provider = await startProvider(() => ({
      status: 503,
      body: '<html>Bad gateway</html>',
      type: 'text/html',
    }));
    cleanups.push(provider.close);
    const sender = createSmsSender(
      { smsUrl: `http://u:p@127.0.0.1:${provider.port}/messages`, smsFrom: null, dataDir: '' },
      silentLog,
    );
    await expect(sender.send({ to: '+15551234567', body: 'x' })).rejects.toThrow(
      /refused the message to \+15551234567 \(HTTP 503\): Service Unavailable$/,
    );
    expect(provider.seen[0]?.form).toEqual({ To: '+15551234567', Body: 'x' }); // no From when SMS_FROM is unset
  });

  it('gives up after the timeout when the provider does not answer', async () => {
    const provider = await startProvider(() => null);
    cleanups.push(provider.close);
    const sender = createSmsSender(
      {
        smsUrl: `http://u:p@127.0.0.1:${provider.port}/messages`,
        smsFrom: '+1',
        dataDir: '',
        timeoutMs: 300,
      },
      silentLog,
    );
    // The provider never answers: only the sender's own timeout ends the call (its message says so).
    await expect(sender.send({ to: '+15551234567', body: 'x' })).rejects.toThrow(
      `The SMS to +15551234567 could not be sent through 127.0.0.1:${provider.port}: no answer within 0.3 s.`,
    );
  });

  it('says when the provider cannot be reached', async () => {
    const provider = await startProvider(() => null);
    await provider.close();
    const sender = createSmsSender(
      { smsUrl: `http://u:p@127.0.0.1:${provider.port}/messages`, smsFrom: '+1', dataDir: '' },
      silentLog,
    );
    await expect(sender.send({ to: '+15551234567', body: 'x' })).rejects.toThrow(
      /could not be sent through 127\.0\.0\.1:\d+: fetch failed \(ECONNREFUSED\)\.$/,
    );
  });
});

describe('the SMS outbox (no SMS_URL)', () => {
  it('writes each message to a file only its owner can read, and logs the recipient only', async () => {
    const dir = tempDir();
    try {
      const logged: object[] = [];
      const sender = createSmsSender(
        { smsUrl: null, smsFrom: '+15550000000', dataDir: dir.path },
        { info: (obj) => logged.push(obj) },
      );
      await sender.send({ to: '+15551234567', body: codeSms('654321', 1) });

      const outbox = path.join(dir.path, 'outbox');
      const files = fs.readdirSync(outbox);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z-[0-9a-f]{12}\.sms\.txt$/);
      const file = path.join(outbox, files[0]!);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const content = fs.readFileSync(file, 'utf8');
      expect(content).toMatch(
        /^To: \+15551234567\nFrom: \+15550000000\nDate: \S+Z\n\nYour DBUI code is 654321\. It expires in 1 minute\.\n$/,
      );
      expect(logged).toEqual([{ to: '+15551234567', file }]);
    } finally {
      dir.remove();
    }
  });
});
