import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreSignIn } from '#common/contract/account.ts';
import { accountApiMessages as am, accountMessages as m } from '#common/messages.ts';
import { hashPassword, verifyPassword } from '#server/crypto/password-hash.ts';
import { AccountClient, type Answer } from '#server/test/account-client.ts';
import { buildUser, type TestUser } from '#server/test/factories.ts';
import { startMailSink, type MailSink } from '#server/test/mail-sink.ts';
import { expectHealthy, expectNoLeak, openSecurityTarget, type SecurityTarget } from './harness.ts';

/*
 * Finding out who has an account, by the answer or by its time. Sign-in, forgot password, sign-up and resend answer
 * the same words for an account that exists (whatever its state: usable, locked, without a password) and for one
 * that does not; and a sign-in takes a password hash's work either way (a dummy hash for unknown names and for
 * refusals made without a check). The timing check measures processor time, which other work on two busy cores
 * does not stretch the way it stretches wall time (medians of wall time swung from 17 to 270 ms at a load of 15),
 * and compares what each kind of sign-in costs beyond a call refused before any account is read with half a hash's
 * cost: a generous bound that a skipped hash (a millisecond or two) still fails.
 * Covered in server/features/account/sign-in.test.ts and not repeated: a forgot-password key of an unknown name has
 * the shape of a real one and never verifies. A taken username at sign-up is said (a person must pick another);
 * that answer needs a new solved human check each time, checked here. The browsed engine does not matter: the app
 * runs with a SQLite target for the canary and health oracles.
 */

const WRONG = 'Wrong#Pass1';
const SAMPLES = 9;

/** The processor time this process spent since `started` (every thread: argon2 hashes off the main one), in ms. */
const cpuMs = (started: NodeJS.CpuUsage) => {
  const spent = process.cpuUsage(started);
  return (spent.user + spent.system) / 1000;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const decode = (pu: string) => JSON.parse(Buffer.from(pu, 'base64').toString('utf8')) as PreSignIn;
/** What an answer tells: status and envelope, with a pre-sign-in key (random either way) blanked. */
const told = (answer: Answer<unknown>) => {
  const body = answer.response.json<{ isSuccess: boolean; data: unknown; message: string | null }>();
  const data = typeof body.data === 'string' ? { ...decode(body.data), key: 'k' } : body.data;
  return { status: answer.status, ...body, data };
};

describe('enumeration of accounts', () => {
  let sink: MailSink;
  let target: SecurityTarget;
  let usable: TestUser;
  let locked: TestUser;
  let passwordless: TestUser;
  const missing = 'nobodyhasthisname';

  const t = () => target.t;
  const browser = () => new AccountClient(t());

  async function login(username: string, password = WRONG) {
    const client = browser();
    const answer = await client.post('/api/account/login', {
      username,
      password,
      token: await client.humanCheck(),
    });
    expectNoLeak(answer.response);
    return answer;
  }
  async function forgot(username: string) {
    const client = browser();
    const answer = await client.post<string>('/api/account/forgotPassword', {
      username,
      token: await client.humanCheck(),
    });
    expectNoLeak(answer.response);
    return { answer, client };
  }
  /** Keeps a test account's failure count at zero, so sampling never locks it. */
  const clearFailures = (user: TestUser) =>
    t().store.db.updateTable('users').set({ failed_logins: 0 }).where('id', '=', user.userId).execute();

  beforeAll(async () => {
    sink = await startMailSink();
    target = await openSecurityTarget('sqlite', { env: { SMTP_URL: sink.url } });
    usable = await buildUser(t());
    locked = await buildUser(t());
    passwordless = await buildUser(t());
    await t()
      .store.db.updateTable('users')
      .set({ locked_until: '2999-01-01T00:00:00.000Z' })
      .where('id', '=', locked.userId)
      .execute();
    // An account made by social sign-in has no password.
    await t()
      .store.db.updateTable('users')
      .set({ password_hash: null })
      .where('id', '=', passwordless.userId)
      .execute();
  });
  afterAll(async () => {
    if (target) {
      await target.expectCanaryIntact();
      await expectHealthy(target);
      await target.close();
    }
    await sink?.close();
  });

  it('answers a sign-in with the same words for every account and for none', async () => {
    const reference = told(await login(missing));
    expect(reference).toMatchObject({ status: 401, message: m.loginFailed });
    for (const user of [usable, locked, passwordless]) {
      expect(told(await login(user.username)), user.username).toEqual(reference);
      await clearFailures(user);
    }
    // The locked account with its right password says the same.
    expect(told(await login(locked.username, 'Test#12345'))).toEqual(reference);
  });

  it('answers forgot password, and a resend and a code for it, with the same words for every account and for none', async () => {
    const reference = await forgot(missing);
    expect(reference.answer.status).toBe(200);
    const referenceKey = decode(reference.answer.data).key;
    const resend = (client: AccountClient, key: string) =>
      client.post('/api/account/login/resend', { key, selected2fa: 'Email' });
    const verify = (client: AccountClient, key: string) =>
      client.post('/api/account/login/verify', { key, otp: '123456', selected2fa: 'Email' });
    const referenceResend = told(await resend(reference.client, referenceKey));
    const referenceVerify = told(await verify(reference.client, referenceKey));
    expect(referenceResend).toMatchObject({ status: 429, message: m.resendWait(60) });
    expect(referenceVerify).toMatchObject({ status: 401, message: m.otpFailed });

    for (const user of [usable, locked, passwordless]) {
      const { answer, client } = await forgot(user.username);
      expect(told(answer), user.username).toEqual(told(reference.answer));
      const key = decode(answer.data).key;
      expect(told(await resend(client, key))).toEqual(referenceResend);
      expect(told(await verify(client, key))).toEqual(referenceVerify);
      await sink.next(`${user.username}@example.com`);
      await clearFailures(user);
    }
    // A minute on, a resend is answered alike again (a code goes out only where there is an account).
    t().clock.advance(61_000);
    try {
      const later = told(await resend(reference.client, referenceKey));
      expect(later).toMatchObject({ status: 200, message: am.codeSent });
      const { answer, client } = await forgot(usable.username);
      await sink.next(`${usable.username}@example.com`);
      t().clock.advance(61_000);
      expect(told(await resend(client, decode(answer.data).key))).toEqual(later);
      await sink.next(`${usable.username}@example.com`);
    } finally {
      t().clock.advance(-122_000);
    }
  });

  it('answers a sign-up with an email in use exactly like one with a new email', async () => {
    const signup = async (username: string, email: string) => {
      const client = browser();
      const answer = await client.post<string>('/api/account/signup', {
        user: { username, user_Details: [{ email }] },
        password: 'Tr7#kQ2vLm',
        token: await client.humanCheck(),
      });
      expectNoLeak(answer.response);
      return answer;
    };
    const taken = await signup('freshname1', `${usable.username}@example.com`);
    const fresh = await signup('freshname2', 'brand.new@example.com');
    expect(told(taken)).toEqual(told(fresh));
    expect(taken.status).toBe(200);
    await sink.next(`${usable.username}@example.com`);
    await sink.next('brand.new@example.com');

    // A taken username is said, but only to a solved human check, each time: a replayed one is refused first.
    const client = browser();
    const token = await client.humanCheck();
    const first = await client.post('/api/account/signup', {
      user: { username: usable.username, user_Details: [{ email: 'x@example.com' }] },
      password: 'Tr7#kQ2vLm',
      token,
    });
    expect([first.status, first.message]).toEqual([409, am.usernameTaken]);
    for (const username of [usable.username, 'stillfree9']) {
      const replayed = await client.post('/api/account/signup', {
        user: { username, user_Details: [{ email: 'x@example.com' }] },
        password: 'Tr7#kQ2vLm',
        token,
      });
      expect([replayed.status, replayed.message]).toEqual([400, am.humanCheckFailed]);
    }
  });

  it('spends a password hash’s work to refuse any account and none', async () => {
    // The hash is measured in the same rounds as the sign-ins, so both see the same machine.
    const stored = await hashPassword('Some#Password1');
    const hashTimes: number[] = [];
    const cases: [string, string][] = [
      ['missing', missing],
      ['usable', usable.username],
      ['locked', locked.username],
      ['passwordless', passwordless.username],
    ];
    const times = new Map<string, number[]>(cases.map(([name]) => [name, []]));
    // What a sign-in costs besides the password check (the request, the human check, the store): the same call
    // with its human-check token replayed, refused after the check of the token and before any account is read.
    const baseline: number[] = [];
    const client = browser();
    await login(missing); // warm-up: the dummy hash is made on first use
    const timed = async (username: string, token: string) => {
      const started = process.cpuUsage();
      const answer = await client.post('/api/account/login', { username, password: WRONG, token });
      return { ms: cpuMs(started), status: answer.status };
    };
    for (let i = 0; i < SAMPLES; i++) {
      const hashStarted = process.cpuUsage();
      await verifyPassword(stored, WRONG);
      hashTimes.push(cpuMs(hashStarted));
      for (const [name, username] of cases) {
        const token = await client.humanCheck();
        const checked = await timed(username, token);
        expect(checked.status).toBe(401);
        times.get(name)?.push(checked.ms);
        const replayed = await timed(username, token);
        expect(replayed.status).toBe(400);
        baseline.push(replayed.ms);
      }
      await clearFailures(usable);
      await clearFailures(passwordless);
    }
    const hashMs = median(hashTimes);
    const overhead = median(baseline);
    const spent = Object.fromEntries([...times].map(([name, values]) => [name, median(values) - overhead]));
    for (const [name] of cases)
      expect(
        spent[name],
        `${name}: ${JSON.stringify(spent)} ms beyond ${overhead.toFixed(1)} ms; a hash takes ${hashMs.toFixed(1)} ms of processor time`,
      ).toBeGreaterThan(hashMs / 2);
  }, 90_000);
});
