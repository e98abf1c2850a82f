import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import type { Verification } from '#common/contract/account.ts';
import { SESSION_STORAGE_KEY } from '#common/limits.ts';
import { sessionMessages, shellMessages } from '#common/messages.ts';
import { AppRoutes, type SessionOptions } from '#web/routes.tsx';
import { specIdleTiming, type Clock } from '#web/session/idle-watch.ts';
import { encodeVerification, readStoredVerification } from '#web/session/storage.ts';
import { adminVerification, sampleVerification } from '#web/session/test-session.ts';
import { registerPopup } from '#web/ui/popups.ts';
import { renderPage } from '#web/test/render-page.tsx';
import { fail, fakeApi, ok, type FakeAnswer } from '#web/test/fake-api.ts';

type FetchArgs = [input: string, init: RequestInit];
const api = fakeApi();
const fetchMock = api.fetch;
/** What GET /api/account/verify answers next: a verification, or null for a 401. */
let verifyAnswer: Verification | null;

function calls(path: string): FetchArgs[] {
  return fetchMock.mock.calls.filter(([url]) => url === path);
}

/** Timers that run only when the test advances them. */
function manualClock(): { clock: Clock; advance: (ms: number) => void; scheduled: () => number[] } {
  let now = 0;
  let nextId = 0;
  const timers = new Map<number, { at: number; every: number | null; run: () => void }>();
  const add = (run: () => void, ms: number, every: number | null) => {
    timers.set(++nextId, { at: now + ms, every, run });
    return nextId;
  };
  const remove = (handle: unknown) => void timers.delete(handle as number);
  return {
    clock: {
      setInterval: (run, ms) => add(run, ms, ms),
      clearInterval: remove,
      setTimeout: (run, ms) => add(run, ms, null),
      clearTimeout: remove,
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        const [id, timer] = due;
        now = timer.at;
        if (timer.every === null) timers.delete(id);
        else timer.at += timer.every;
        timer.run();
      }
      now = end;
    },
    /** When the timers set so far are due (the page sets its refresh once the first verification has answered). */
    scheduled: () => [...timers.values()].map((timer) => timer.at),
  };
}

let where = '';
function Where() {
  const { pathname } = useLocation();
  useEffect(() => {
    where = pathname;
  }, [pathname]);
  return null;
}

function renderAt(path: string, session: SessionOptions = {}) {
  return renderPage(
    <>
      <AppRoutes session={session} />
      <Where />
    </>,
    { at: path },
  );
}

beforeEach(() => {
  verifyAnswer = sampleVerification;
  api.on('GET', '/api/account/verify', () => (verifyAnswer ? ok(verifyAnswer) : fail(401, 'No.')));
  api.on('GET', '/api/account/logout', ok(null));
});

afterEach(() => {
  localStorage.clear();
});

function signedInAs(value: Verification): void {
  localStorage.setItem(SESSION_STORAGE_KEY, encodeVerification(value));
}

describe('start-up', () => {
  it("verifies a stored session behind 'Starting Application...', with its token, then shows the app", async () => {
    signedInAs({ ...sampleVerification, token: 'stored' });
    let answer: (response: FakeAnswer) => void = () => undefined;
    api.once('GET', '/api/account/verify', () => new Promise((resolve) => (answer = resolve)));
    renderAt('/home');
    expect(screen.getByText(shellMessages.starting)).toBeTruthy();
    expect(screen.queryByRole('banner')).toBeNull();
    await waitFor(() => expect(calls('/api/account/verify')).toHaveLength(1));
    expect(new Headers(calls('/api/account/verify')[0]?.[1].headers).get('Authorization')).toBe(
      'Bearer stored',
    );

    answer(ok({ ...sampleVerification, token: 'renewed' }));
    expect(await screen.findByRole('banner')).toBeTruthy();
    expect(screen.queryByText(shellMessages.starting)).toBeNull();
    expect(readStoredVerification()?.token).toBe('renewed');
  });

  it('signs out when the stored session does not verify', async () => {
    signedInAs(sampleVerification);
    verifyAnswer = null;
    renderAt('/home');
    expect(await screen.findByRole('banner')).toBeTruthy();
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it('shows the app at once without a stored session, asking nothing', async () => {
    renderAt('/home');
    expect(await screen.findByRole('banner')).toBeTruthy();
    expect(calls('/api/account/verify')).toHaveLength(0);
  });
});

describe('the access guard', () => {
  it('sends nobody signed in from a guarded page to the 401 page, closing every popup', async () => {
    const closePopup = vi.fn();
    const remove = registerPopup(closePopup);
    renderAt('/account');
    expect(await screen.findByRole('heading', { name: shellMessages.unauthorized })).toBeTruthy();
    await waitFor(() => expect(where).toBe('/error/unauthorized'));
    expect(closePopup).toHaveBeenCalled();
    remove();
  });

  it('sends a signed-in person without the link to the 401 page and keeps the session', async () => {
    signedInAs(sampleVerification);
    renderAt('/admin/home');
    expect(await screen.findByRole('heading', { name: shellMessages.unauthorized })).toBeTruthy();
    expect(readStoredVerification()).not.toBeNull();
  });

  it('lets a person whose links allow the page in', async () => {
    signedInAs(adminVerification);
    verifyAnswer = adminVerification;
    renderAt('/admin/home');
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin' })).toBeTruthy();
    await waitFor(() => expect(where).toBe('/admin/home'));
  });

  it('leaves public pages open', async () => {
    renderAt('/error/unauthorized');
    expect(await screen.findByRole('heading', { name: shellMessages.unauthorized })).toBeTruthy();
    renderAt('/account/signup');
    await waitFor(() => expect(where).toBe('/account/signup'));
  });
});

describe('refresh', () => {
  it('verifies again once the expiration is within 5 minutes', async () => {
    const now = Date.parse('2030-01-01T00:00:00.000Z');
    const soon = { ...sampleVerification, expiration: new Date(now + 6 * 60_000 + 150).toISOString() };
    signedInAs(soon);
    verifyAnswer = soon;
    // The test's own clock: the refresh comes when the test says, however slowly the page renders.
    const { clock, advance, scheduled } = manualClock();
    renderAt('/home', { now: () => now, clock });
    expect(await screen.findByRole('banner')).toBeTruthy();
    expect(calls('/api/account/verify')).toHaveLength(1);
    // On a loaded machine the first answer can be handled after the banner shows: the refresh is set then.
    await waitFor(() => expect(scheduled()).toContain(60_150));
    verifyAnswer = { ...sampleVerification, token: 'refreshed' };
    act(() => advance(60_149));
    expect(calls('/api/account/verify')).toHaveLength(1);
    act(() => advance(1));
    await waitFor(() => expect(calls('/api/account/verify')).toHaveLength(2));
    await waitFor(() => expect(readStoredVerification()?.token).toBe('refreshed'));
  });

  it("a browser clock ahead of the server's verifies once a minute, not in a loop", async () => {
    // The server's expiration is 30 minutes on from its own clock; this browser's clock is 40 minutes ahead.
    const now = Date.parse('2030-01-01T00:40:00.000Z');
    const behind = { ...sampleVerification, expiration: '2030-01-01T00:30:00.000Z' };
    signedInAs(behind);
    verifyAnswer = behind;
    const { clock, advance, scheduled } = manualClock();
    renderAt('/home', { now: () => now, clock });
    expect(await screen.findByRole('banner')).toBeTruthy();
    expect(calls('/api/account/verify')).toHaveLength(1);
    await waitFor(() => expect(scheduled()).toContain(60_000));
    act(() => advance(59_999));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls('/api/account/verify')).toHaveLength(1);
    act(() => advance(1));
    await waitFor(() => expect(calls('/api/account/verify')).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls('/api/account/verify')).toHaveLength(2);
  });

  it('signs out and goes to /account/logout when the refresh fails', async () => {
    const now = Date.parse('2030-01-01T00:00:00.000Z');
    const soon = { ...sampleVerification, expiration: new Date(now + 6 * 60_000 + 100).toISOString() };
    signedInAs(soon);
    verifyAnswer = soon;
    const { clock, advance, scheduled } = manualClock();
    renderAt('/home', { now: () => now, clock });
    expect(await screen.findByRole('banner')).toBeTruthy();
    await waitFor(() => expect(scheduled()).toContain(60_100));
    verifyAnswer = null;
    act(() => advance(60_100));
    await waitFor(() => expect(calls('/api/account/logout')).toHaveLength(1));
    await waitFor(() => expect(where).toBe('/home'));
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });
});

describe('idle handling (timings shortened as end-to-end runs do)', () => {
  const timing = { tickMs: 20, alertTicks: 3, logoutAfterMs: 300 };

  it("shows the 'Idle Alert' after the ticks; 'Yes!' verifies again and closes it (on a clock of the test's)", async () => {
    const { clock, advance } = manualClock();
    signedInAs(sampleVerification);
    renderAt('/home', { timing: specIdleTiming, clock });
    expect(await screen.findByRole('banner')).toBeTruthy();
    act(() => advance(149 * 10_000));
    expect(screen.queryByText(sessionMessages.idleQuestion)).toBeNull();
    act(() => advance(10_000));
    expect(await screen.findByText(sessionMessages.idleQuestion)).toBeTruthy();
    expect(await screen.findByRole('dialog', { name: sessionMessages.idleTitle })).toBeTruthy();
    const before = calls('/api/account/verify').length;
    fireEvent.click(screen.getByRole('button', { name: sessionMessages.idleYes }));
    await waitFor(() => expect(calls('/api/account/verify').length).toBe(before + 1));
    await waitFor(() => expect(screen.queryByText(sessionMessages.idleQuestion)).toBeNull());
    // The answered alert's deadline is gone: 300,000 ms later the session is still there.
    act(() => advance(299_999));
    expect(calls('/api/account/logout')).toHaveLength(0);
    expect(readStoredVerification()).not.toBeNull();
  });

  it('keeps the alert away while the mouse moves or keys are pressed', async () => {
    signedInAs(sampleVerification);
    renderAt('/home', { timing });
    expect(await screen.findByRole('banner')).toBeTruthy();
    for (let i = 0; i < 8; i++) {
      await new Promise((resolve) => setTimeout(resolve, 15));
      fireEvent(window, new Event(i % 2 ? 'mousemove' : 'keydown'));
    }
    expect(screen.queryByText(sessionMessages.idleQuestion)).toBeNull();
  });

  it('without an answer, ends the session through /account/logout and lands on /home', async () => {
    signedInAs(sampleVerification);
    renderAt('/home', { timing });
    expect(await screen.findByText(sessionMessages.idleQuestion)).toBeTruthy();
    await waitFor(() => expect(calls('/api/account/logout')).toHaveLength(1));
    expect(new Headers(calls('/api/account/logout')[0]?.[1].headers).get('Authorization')).toBe(
      'Bearer token-1',
    );
    await waitFor(() => expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull());
    await waitFor(() => expect(where).toBe('/home'));
  });
});
