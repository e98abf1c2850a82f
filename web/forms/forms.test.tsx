import { describe, expect, it, vi } from 'vitest';
import { act, renderHook, screen } from '@testing-library/react';
import { useForm } from '@mantine/form';
import { loginRequest } from '#common/contract/account.ts';
import { accountMessages, adminMessages, formMessages } from '#common/messages.ts';
import { usePendingChanges } from '#web/forms/pending-changes.ts';
import { validateWith } from '#web/forms/schema-validation.ts';
import { useSubmit } from '#web/forms/use-submit.ts';
import { renderPageHook } from '#web/test/render-page.tsx';

describe('validateWith', () => {
  it("gives a form the contract's rules and messages", () => {
    const { result } = renderHook(() =>
      useForm({
        initialValues: { username: '', password: '', token: '' },
        validate: validateWith(loginRequest),
      }),
    );
    act(() => void result.current.validate());
    expect(result.current.errors).toEqual({
      username: accountMessages.usernameRequired,
      password: accountMessages.passwordRequired,
      token: formMessages.invalidForm,
    });
    act(() => result.current.setValues({ username: 'bad name!', password: 'x', token: 't' }));
    act(() => void result.current.validate());
    expect(result.current.errors).toEqual({ username: accountMessages.invalidCharacters });
  });
});

describe('useSubmit', () => {
  it('runs one submit at a time and says so meanwhile', async () => {
    const { result } = renderHook(() => useSubmit());
    let finish: (value: string) => void = () => undefined;
    const work = vi.fn(() => new Promise<string>((resolve) => (finish = resolve)));
    let first: Promise<string | undefined> = Promise.resolve(undefined);
    act(() => {
      first = result.current.submit(work);
    });
    expect(result.current.submitting).toBe(true);
    let second: string | undefined = 'not run';
    await act(async () => {
      second = await result.current.submit(work);
    });
    expect(second).toBeUndefined();
    expect(work).toHaveBeenCalledTimes(1);
    await act(async () => {
      finish('done');
      expect(await first).toBe('done');
    });
    expect(result.current.submitting).toBe(false);
  });

  it('frees the flag when the work fails', async () => {
    const { result } = renderHook(() => useSubmit());
    await act(async () => {
      await expect(result.current.submit(() => Promise.reject(new Error('x')))).rejects.toThrow('x');
    });
    expect(result.current.submitting).toBe(false);
  });
});

describe('usePendingChanges', () => {
  it('blocks the action with the warning while changes are pending, and asks before the page unloads', async () => {
    const action = vi.fn();
    const { result, rerender } = renderPageHook(({ pending }) => usePendingChanges(pending), {
      initialProps: { pending: true },
    });
    expect(result.current(action, adminMessages.cannotSwitchPages)).toBe(false);
    expect(action).not.toHaveBeenCalled();
    expect(await screen.findByText(adminMessages.cannotSwitchPages)).toBeTruthy();
    const leaving = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(leaving);
    expect(leaving.defaultPrevented).toBe(true);

    rerender({ pending: false });
    expect(result.current(action, adminMessages.cannotSwitchPages)).toBe(true);
    expect(action).toHaveBeenCalledTimes(1);
    const leavingNow = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(leavingNow);
    expect(leavingNow.defaultPrevented).toBe(false);
  });
});
