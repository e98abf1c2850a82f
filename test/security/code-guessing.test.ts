import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreSignIn, Verification } from '#common/contract/account.ts';
import { accountApiMessages as am, accountMessages as m } from '#common/messages.ts';
import { AccountClient, type Answer } from '#server/test/account-client.ts';
import { TEST_PASSWORD, buildUser, type TestUser } from '#server/test/factories.ts';
import { startMailSink, type MailSink } from '#server/test/mail-sink.ts';
import { expectHealthy, expectNoLeak, openSecurityTarget, type SecurityTarget } from './harness.ts';

/*
 * Guessing, replaying and swapping one-time codes, one after another (parallel replays and double submits:
 * lockout-races.test.ts, double-submit.test.ts). Already covered and not repeated: wrong sign-in codes count toward
 * the lockout, a sign-in's key and code work once, a resent code replaces the last, and a key expires after 10
 * minutes (server/features/account/sign-in.test.ts); a setup code expires and dies after five wrong guesses, and an
 * app code works once per time step (two-factor.test.ts). Here: a code is bound to the sign-in it was sent for (not
 * another sign-in of the same account, not another account's), a used code or recovery code does not open a new
 * sign-in, a code resent at the last minute dies with its sign-in, a code for one purpose or channel does not serve
 * another. The browsed engine does not matter: the app runs with a SQLite target for the canary and health oracles.
 */

const MINUTE = 60_000;

describe('guessing and replaying codes', () => {
  let sink: MailSink;
  let target: SecurityTarget;
  let advanced = 0;

  const t = () => target.t;
  /** Moves the app's time; it is moved back at the end, so the administrator's session holds for the oracles. */
  const advance = (ms: number) => {
    advanced += ms;
    t().clock.advance(ms);
  };
  const failures = async (user: TestUser) =>
    (
      await t()
        .store.db.selectFrom('users')
        .select('failed_logins')
        .where('id', '=', user.userId)
        .executeTakeFirstOrThrow()
    ).failed_logins;
  const emailOf = (user: TestUser) => `${user.username}@example.com`;

  /** Sign-in step one; answers the key and the code mailed for it. */
  async function begin(user: TestUser): Promise<{ browser: AccountClient; key: string; code: string }> {
    const browser = new AccountClient(t());
    const answer = await browser.post<PreSignIn>('/api/account/login', {
      username: user.username,
      password: TEST_PASSWORD,
      token: await browser.humanCheck(),
    });
    expect(answer.status, answer.message ?? '').toBe(200);
    return { browser, key: answer.data.key, code: await sink.nextCode(emailOf(user)) };
  }
  async function verify(browser: AccountClient, key: string, otp: string, selected2fa = 'Email') {
    const answer = await browser.post<Verification>('/api/account/login/verify', { key, otp, selected2fa });
    expectNoLeak(answer.response);
    return answer;
  }
  const expectRefused = (answer: Answer) => {
    expect(answer.status).toBe(401);
    expect(answer.response.json()).toEqual({ isSuccess: false, data: null, message: m.otpFailed });
  };

  beforeAll(async () => {
    sink = await startMailSink();
    target = await openSecurityTarget('sqlite', { env: { SMTP_URL: sink.url } });
  });
  afterAll(async () => {
    if (target) {
      target.t.clock.advance(-advanced);
      await target.expectCanaryIntact();
      await expectHealthy(target);
      await target.close();
    }
    await sink?.close();
  });

  it("refuses the code of another sign-in, of the same account or another's, and counts it", async () => {
    const ann = await buildUser(t());
    const bob = await buildUser(t());
    const first = await begin(ann);
    const second = await begin(ann);
    const bobs = await begin(bob);
    // Six digits drawn at random may coincide; then that pair proves nothing and is skipped.
    let counted = 0;
    for (const [key, code, own] of [
      [second.key, first.code, second.code],
      [first.key, second.code, first.code],
      [first.key, bobs.code, first.code],
    ] as const) {
      if (code === own) continue;
      expectRefused(await verify(first.browser, key, code));
      counted++;
    }
    expect(await failures(ann)).toBe(counted);
    expect(await failures(bob)).toBe(0);
    // Each code still opens its own sign-in.
    expect((await verify(first.browser, first.key, first.code)).status).toBe(200);
    expect((await verify(second.browser, second.key, second.code)).status).toBe(200);
    expect((await verify(bobs.browser, bobs.key, bobs.code)).status).toBe(200);
  });

  it('does not open a new sign-in with a code or a recovery code already used', async () => {
    const user = await buildUser(t());
    const session = new AccountClient(t());
    session.token = user.token;
    const issued = await session.post<{ recoveryCodes: string[] }>('/api/account/recovery-codes');
    const recovery = issued.data.recoveryCodes[0] ?? '';

    const used = await begin(user);
    expect((await verify(used.browser, used.key, used.code)).status).toBe(200);
    const next = await begin(user);
    if (next.code !== used.code) expectRefused(await verify(next.browser, next.key, used.code));

    expect((await verify(next.browser, next.key, recovery, 'Recovery')).status).toBe(200);
    const third = await begin(user);
    expectRefused(await verify(third.browser, third.key, recovery, 'Recovery'));
    // Written as shown, in capitals or without its hyphen, it is still the same spent code.
    expectRefused(
      await verify(third.browser, third.key, recovery.toUpperCase().replace('-', ''), 'Recovery'),
    );
    expect((await verify(third.browser, third.key, third.code)).status).toBe(200);
  });

  it('lets a code resent in the last minute die with its sign-in', async () => {
    const user = await buildUser(t());
    const { browser, key } = await begin(user);
    advance(9 * MINUTE + 30_000);
    const resent = await browser.post('/api/account/login/resend', { key, selected2fa: 'Email' });
    expect(resent.status, resent.message ?? '').toBe(200);
    const code = await sink.nextCode(emailOf(user));
    advance(31_000);
    expectRefused(await verify(browser, key, code));
    const again = await browser.post('/api/account/login/resend', { key, selected2fa: 'Email' });
    expectNoLeak(again.response);
    expect([again.status, again.message]).toEqual([400, m.resendFailed]);
  });

  it('keeps codes to their purpose: an address code does not sign in, a sign-in code does not confirm an address', async () => {
    const user = await buildUser(t());
    const session = new AccountClient(t());
    session.token = user.token;
    const newAddress = `${user.username}.new@example.com`;
    const sent = await session.get(`/api/account/eotp/${encodeURIComponent(newAddress)}`);
    expect(sent.status, sent.message ?? '').toBe(200);
    const confirmCode = await sink.nextCode(newAddress);
    const { browser, key, code } = await begin(user);

    if (confirmCode !== code) expectRefused(await verify(browser, key, confirmCode));
    const confirm = await session.get(`/api/account/eotp/verify/${code}`);
    expectNoLeak(confirm.response);
    if (confirmCode !== code) expect([confirm.status, confirm.message]).toEqual([400, m.otpFailed]);
    const stored = await t()
      .store.db.selectFrom('users')
      .select('email')
      .where('id', '=', user.userId)
      .executeTakeFirstOrThrow();
    expect(stored.email).toBe(emailOf(user));
    expect((await verify(browser, key, code)).status).toBe(200);
  });

  it('keeps codes to their channel: an emailed code does not pass as the text-message code', async () => {
    const user = await buildUser(t());
    await t()
      .store.db.updateTable('users')
      .set({ phone: '+15551230000', phone_verified_at: new Date().toISOString() })
      .where('id', '=', user.userId)
      .execute();
    const { browser, key, code } = await begin(user);
    expectRefused(await verify(browser, key, code, 'Phone'));
    expect(await failures(user)).toBe(1);
    // Not allowed at all: a method the account has not set up.
    const totp = await verify(browser, key, code, 'Totp');
    expect(totp.status).toBe(400);
    expect(totp.message).toBe(am.methodNotAllowed);
    expect((await verify(browser, key, code)).status).toBe(200);
  });
});
