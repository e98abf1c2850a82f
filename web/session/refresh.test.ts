import { describe, expect, it } from 'vitest';
import { refreshDelay } from '#web/session/refresh.ts';

const now = Date.parse('2030-01-01T00:00:00.000Z');

describe('refreshDelay', () => {
  it('waits until 5 minutes before the expiration', () => {
    expect(refreshDelay('2030-01-01T00:30:00.000Z', now)).toBe(25 * 60_000);
    expect(refreshDelay('2030-01-01T00:06:00.001Z', now)).toBe(60_001);
  });

  it('waits a minute within 5 minutes of the expiration, after it, or when it does not parse: never a loop', () => {
    expect(refreshDelay('2030-01-01T00:05:00.000Z', now)).toBe(60_000);
    expect(refreshDelay('2030-01-01T00:05:30.000Z', now)).toBe(60_000);
    expect(refreshDelay('2030-01-01T00:01:00.000Z', now)).toBe(60_000);
    expect(refreshDelay('2029-12-31T00:00:00.000Z', now)).toBe(60_000);
    expect(refreshDelay('soon', now)).toBe(60_000);
  });

  it("never asks for more than a timer's longest delay", () => {
    expect(refreshDelay('2100-01-01T00:00:00.000Z', now)).toBe(2_147_483_647);
  });
});
