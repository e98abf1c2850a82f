import { describe, expect, it } from 'vitest';
import { initialSetup, isSettingUp, setupReducer, type SetupEvent, type SetupState } from './method-setup.ts';

const run = (events: SetupEvent[], from: SetupState = initialSetup) => events.reduce(setupReducer, from);

describe('a card’s setup steps (spec 000 §4)', () => {
  it('goes not set up → value → code → verified', () => {
    expect(initialSetup).toEqual({ step: 'idle' });
    const value = run([{ type: 'start' }]);
    expect(value).toEqual({ step: 'value' });
    const code = setupReducer(value, { type: 'sent', target: 'ann@example.com' });
    expect(code).toEqual({ step: 'code', target: 'ann@example.com' });
    expect(setupReducer(code, { type: 'verified' })).toEqual({ step: 'verified' });
  });

  it('is open only while entering the value or the code', () => {
    expect(isSettingUp({ step: 'idle' })).toBe(false);
    expect(isSettingUp({ step: 'value' })).toBe(true);
    expect(isSettingUp({ step: 'code', target: 'x' })).toBe(true);
    expect(isSettingUp({ step: 'verified' })).toBe(false);
  });

  it('can be redone once verified', () => {
    expect(run([{ type: 'start' }], { step: 'verified' })).toEqual({ step: 'value' });
  });

  it('goes back from the code to change the value, and a resend keeps the code step with the new target', () => {
    const code = run([{ type: 'start' }, { type: 'sent', target: '+15551234567' }]);
    expect(setupReducer(code, { type: 'change' })).toEqual({ step: 'value' });
    expect(setupReducer(code, { type: 'sent', target: '+15559876543' })).toEqual({
      step: 'code',
      target: '+15559876543',
    });
  });

  it('cancels from the value or the code step back to the card', () => {
    expect(run([{ type: 'start' }, { type: 'cancel' }])).toEqual({ step: 'idle' });
    expect(run([{ type: 'start' }, { type: 'sent', target: 't' }, { type: 'cancel' }])).toEqual({
      step: 'idle',
    });
  });

  it('ignores events that do not belong to the step', () => {
    expect(setupReducer(initialSetup, { type: 'verified' })).toEqual(initialSetup);
    expect(setupReducer(initialSetup, { type: 'sent', target: 't' })).toEqual(initialSetup);
    expect(setupReducer(initialSetup, { type: 'change' })).toEqual(initialSetup);
    expect(setupReducer({ step: 'value' }, { type: 'verified' })).toEqual({ step: 'value' });
    expect(setupReducer({ step: 'value' }, { type: 'start' })).toEqual({ step: 'value' });
    expect(setupReducer({ step: 'verified' }, { type: 'cancel' })).toEqual({ step: 'verified' });
  });
});
