import { describe, expect, it } from 'vitest';
import { COOKIE_CONSENT_KEY } from '#common/limits.ts';
import {
  consentAt,
  readStoredConsent,
  writeStoredConsent,
  type ConsentStorage,
} from '#web/features/consent/consent-storage.ts';

const DAY = 24 * 60 * 60 * 1000;
const start = new Date('2026-01-10T12:00:00.000Z');
const later = (ms: number) => new Date(start.getTime() + ms);

function memoryStorage(): ConsentStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
  };
}

describe('the stored consent', () => {
  it("is the choice and its date as JSON under 'accept-cookies-v1'", () => {
    const storage = memoryStorage();
    expect(writeStoredConsent(storage, 'rejected', start)).toBe(true);
    expect(JSON.parse(storage.items.get(COOKIE_CONSENT_KEY) ?? '')).toEqual({
      value: 'rejected',
      at: '2026-01-10T12:00:00.000Z',
    });
    expect(readStoredConsent(storage)).toEqual({ value: 'rejected', at: '2026-01-10T12:00:00.000Z' });
  });

  it('remembers a rejection for 30 days, then asks again', () => {
    const rejected = { value: 'rejected', at: start.toISOString() } as const;
    expect(consentAt(rejected, start)).toBe('rejected');
    expect(consentAt(rejected, later(30 * DAY - 1000))).toBe('rejected');
    expect(consentAt(rejected, later(30 * DAY))).toBeNull();
    expect(consentAt(rejected, later(400 * DAY))).toBeNull();
    // A clock set back keeps the rejection.
    expect(consentAt(rejected, later(-5 * DAY))).toBe('rejected');
  });

  it('keeps an acceptance', () => {
    expect(consentAt({ value: 'accepted', at: start.toISOString() }, later(3650 * DAY))).toBe('accepted');
    expect(consentAt(null, start)).toBeNull();
  });

  it('treats a missing, broken or foreign value as no choice', () => {
    const storage = memoryStorage();
    expect(readStoredConsent(storage)).toBeNull();
    for (const text of [
      'true',
      'accepted',
      '{"value":"yes","at":"2026-01-01"}',
      '{"value":"accepted"}',
      '{',
    ]) {
      storage.items.set(COOKIE_CONSENT_KEY, text);
      expect(readStoredConsent(storage), text).toBeNull();
    }
    expect(readStoredConsent(null)).toBeNull();
  });

  it('never throws when the browser refuses its storage', () => {
    const refusing: ConsentStorage = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(readStoredConsent(refusing)).toBeNull();
    expect(writeStoredConsent(refusing, 'accepted', start)).toBe(false);
    expect(writeStoredConsent(null, 'accepted', start)).toBe(false);
  });
});
