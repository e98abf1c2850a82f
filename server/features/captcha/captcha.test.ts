import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCaptcha, memoryReplayGuard, type AltchaChallenge } from './captcha.ts';
import { captchaRoutes } from './routes.ts';

const settings = { hmacKey: 'test-secret', cost: 200 };

/** Solves a challenge the way the widget does, and encodes the payload the way it does (base64 of JSON). */
async function solve(challenge: AltchaChallenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('no solution');
  const payload = {
    challenge: { parameters: challenge.parameters, signature: challenge.signature },
    solution,
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
const decode = (payload: string) => JSON.parse(Buffer.from(payload, 'base64').toString('utf8'));

describe('the human check', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('accepts a solved challenge once', async () => {
    const captcha = createCaptcha(settings, memoryReplayGuard());
    const payload = await solve(await captcha.challenge());
    expect(await captcha.verify(payload)).toBe(true);
    expect(await captcha.verify(payload)).toBe(false); // replayed
    // Another challenge is another chance.
    expect(await captcha.verify(await solve(await captcha.challenge()))).toBe(true);
  });

  it('issues signed, expiring challenges whose work stays within the cost', async () => {
    const captcha = createCaptcha({ hmacKey: 'k', cost: 50 }, memoryReplayGuard());
    const before = Date.now();
    for (let i = 0; i < 10; i++) {
      const challenge = await captcha.challenge();
      expect(challenge.parameters).toMatchObject({ algorithm: 'SHA-256', cost: 1 });
      expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
      const expiresAt = challenge.parameters.expiresAt * 1000;
      expect(expiresAt).toBeGreaterThan(before + 5 * 60_000 - 2_000);
      expect(expiresAt).toBeLessThanOrEqual(Date.now() + 5 * 60_000);
      const { counter } = decode(await solve(challenge)).solution;
      expect(counter).toBeGreaterThanOrEqual(1);
      expect(counter).toBeLessThanOrEqual(50);
    }
  });

  it('refuses a tampered payload', async () => {
    const captcha = createCaptcha(settings, memoryReplayGuard());
    const payload = decode(await solve(await captcha.challenge()));

    const wrongKey = structuredClone(payload);
    const key: string = wrongKey.solution.derivedKey;
    wrongKey.solution.derivedKey = `${key[0] === '0' ? '1' : '0'}${key.slice(1)}`;
    expect(await captcha.verify(encode(wrongKey))).toBe(false);

    const easier = structuredClone(payload);
    easier.challenge.parameters.keyPrefix = '00';
    expect(await captcha.verify(encode(easier))).toBe(false);

    const longer = structuredClone(payload);
    longer.challenge.parameters.expiresAt += 3600;
    expect(await captcha.verify(encode(longer))).toBe(false);

    const unsigned = structuredClone(payload);
    delete unsigned.challenge.signature;
    expect(await captcha.verify(encode(unsigned))).toBe(false);

    const extra = structuredClone(payload);
    extra.challenge.parameters.data = { admin: true };
    expect(await captcha.verify(encode(extra))).toBe(false);

    // Untouched, it still works: none of the above used it up.
    expect(await captcha.verify(encode(payload))).toBe(true);
  });

  it('refuses a challenge signed with another key', async () => {
    const ours = createCaptcha(settings, memoryReplayGuard());
    const theirs = createCaptcha({ ...settings, hmacKey: 'another-secret' }, memoryReplayGuard());
    expect(await ours.verify(await solve(await theirs.challenge()))).toBe(false);
  });

  it('refuses an expired challenge', async () => {
    const captcha = createCaptcha({ ...settings, lifetimeMs: 60_000 }, memoryReplayGuard());
    const payload = await solve(await captcha.challenge());
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 61_000);
    expect(await captcha.verify(payload)).toBe(false);
  });

  it('answers false, never throws, for anything that is not a payload', async () => {
    const captcha = createCaptcha(settings, memoryReplayGuard());
    const solved = decode(await solve(await captcha.challenge()));
    const garbage: (string | undefined)[] = [
      undefined,
      '',
      'not base64 at all!',
      '====',
      Buffer.from('hello').toString('base64'),
      encode(null),
      encode([]),
      encode({}),
      encode({ challenge: solved.challenge }),
      encode({ ...solved, solution: { counter: -1, derivedKey: solved.solution.derivedKey } }),
      encode({ ...solved, solution: { counter: 2 ** 40, derivedKey: solved.solution.derivedKey } }),
      encode({ ...solved, solution: { counter: 1, derivedKey: 'ZZ' } }),
      encode({ algorithm: 'SHA-256', challenge: 'abc', number: 1, salt: 's', signature: 'x' }), // ALTCHA v1
      'A'.repeat(100_000),
    ];
    for (const payload of garbage) expect(await captcha.verify(payload)).toBe(false);
  });

  it('rejects settings it cannot work with', () => {
    expect(() => createCaptcha({ hmacKey: '', cost: 10 }, memoryReplayGuard())).toThrow('HMAC key');
    expect(() => createCaptcha({ hmacKey: 'k', cost: 0 }, memoryReplayGuard())).toThrow('cost');
  });
});

describe('the memory replay guard', () => {
  it('claims an id once until it expires, and forgets expired ids', async () => {
    let now = 1_000_000;
    const guard = memoryReplayGuard(() => now);
    const until = new Date(now + 5 * 60_000);
    expect(await guard.claim('a', until)).toBe(true);
    expect(await guard.claim('a', until)).toBe(false);
    expect(await guard.claim('b', until)).toBe(true);
    now += 5 * 60_000 + 1;
    expect(await guard.claim('a', new Date(now + 60_000))).toBe(true);
  });
});

describe('GET /api/captcha', () => {
  it('answers a challenge the widget can solve, uncached, and the solution verifies', async () => {
    const captcha = createCaptcha(settings, memoryReplayGuard());
    const app = Fastify({ logger: false });
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(captchaRoutes(captcha));
    try {
      const response = await app.inject({ method: 'GET', url: '/api/captcha' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      const challenge = response.json();
      expect(Object.keys(challenge).sort()).toEqual(['parameters', 'signature']); // ALTCHA's shape, no envelope
      expect(Object.keys(challenge.parameters).sort()).toEqual([
        'algorithm',
        'cost',
        'expiresAt',
        'keyLength',
        'keyPrefix',
        'keySignature',
        'nonce',
        'salt',
      ]);
      const payload = await solve(challenge);
      expect(await captcha.verify(payload)).toBe(true);
      expect(await captcha.verify(payload)).toBe(false);
    } finally {
      await app.close();
    }
  });
});
