import { afterEach, describe, expect, it } from 'vitest';
import type { Verification } from '#common/contract/account.ts';
import { SESSION_STORAGE_KEY } from '#common/limits.ts';
import {
  clearStoredVerification,
  decodeVerification,
  encodeVerification,
  readStoredVerification,
  storeVerification,
} from '#web/session/storage.ts';
import { sampleVerification } from '#web/session/test-session.ts';

afterEach(() => localStorage.clear());

describe('the stored session', () => {
  it('is the verification as base64 of its JSON under UTOKEN, and reads back equal', () => {
    const value: Verification = {
      ...sampleVerification,
      user: { ...sampleVerification.user, username: 'Zoë李' },
    };
    storeVerification(value);
    const stored = localStorage.getItem(SESSION_STORAGE_KEY);
    expect(stored).toBe(encodeVerification(value));
    const json = new TextDecoder().decode(Uint8Array.from(atob(stored ?? ''), (c) => c.charCodeAt(0)));
    expect(JSON.parse(json)).toEqual(value);
    expect(readStoredVerification()).toEqual(value);
  });

  it('drops a value that is not base64, not JSON or not a verification', () => {
    for (const bad of ['%%%', btoa('{not json'), btoa(JSON.stringify({ token: 'x' })), btoa('\xff\xfe')]) {
      localStorage.setItem(SESSION_STORAGE_KEY, bad);
      expect(readStoredVerification()).toBeNull();
      expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    }
    expect(decodeVerification('')).toBeNull();
  });

  it('is removed by clearing', () => {
    storeVerification(sampleVerification);
    clearStoredVerification();
    expect(readStoredVerification()).toBeNull();
  });
});
