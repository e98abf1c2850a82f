import { describe, expect, it } from 'vitest';
import { ApiFailure } from '#web/api/query.ts';
import { failureSentence } from './failure-toast.ts';

describe('the failed send or check sentence (spec 000 §8)', () => {
  it("is the server's message, then 'Please try again.'", () => {
    expect(failureSentence(new ApiFailure('Please wait 42 seconds before resending OTP.'))).toBe(
      'Please wait 42 seconds before resending OTP. Please try again.',
    );
  });

  it("says 'Something went wrong' when the server said nothing of its own", () => {
    expect(failureSentence(new ApiFailure('GET request failed.'))).toBe(
      'Something went wrong. Please try again.',
    );
    expect(failureSentence(new Error(''))).toBe('Something went wrong. Please try again.');
    expect(failureSentence('not an error')).toBe('Something went wrong. Please try again.');
  });
});
