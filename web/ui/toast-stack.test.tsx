import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { TOAST_FADE_MS, TOAST_TIMEOUT_MS } from '#common/limits.ts';
import { renderPage } from '#web/test/render-page.tsx';
// Loaded ahead: toasts.tsx loads the stack with the first toast, and a module's first load is real time.
import '#web/ui/toast-stack.tsx';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
});
afterEach(() => {
  act(() => notifications.clean());
  vi.useRealTimers();
});

/** Lets the test's clock run, then the renders and effects that follow. */
async function advance(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
  for (let turn = 0; turn < 5; turn += 1) {
    await act(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      await vi.advanceTimersByTimeAsync(0);
    });
  }
}

describe('the toast stack', () => {
  it('closes every toast after 3000 ms (spec 000 §9), whatever the call asked for', async () => {
    renderPage(<p>page</p>);
    // What a call of notifications.show anywhere might ask: to stay until closed by hand, or a time of its own.
    act(() => {
      notifications.show({ color: 'red', message: 'Stays for good?', autoClose: false });
      notifications.show({ color: 'red', message: 'A minute?', autoClose: 60_000 });
      notifications.show({ color: 'green', message: 'The usual.' });
    });
    await advance(0);
    expect(screen.getByText('Stays for good?')).toBeTruthy();
    expect(screen.getByText('A minute?')).toBeTruthy();
    expect(screen.getByText('The usual.')).toBeTruthy();

    await advance(TOAST_TIMEOUT_MS - 100);
    expect(screen.getByText('Stays for good?')).toBeTruthy();
    await advance(100 + TOAST_FADE_MS + 100);
    expect(screen.queryByText('The usual.')).toBeNull();
    expect(screen.queryByText('Stays for good?')).toBeNull();
    expect(screen.queryByText('A minute?')).toBeNull();
  });
});
