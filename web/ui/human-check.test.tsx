import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import type { AltchaWidgetElement } from 'altcha';
import { humanCheckMessages } from '#common/messages.ts';
import { setTokenSource } from '#web/api/client.ts';
import { fetchAsTheApp, HUMAN_CHECK_CHALLENGE_PATH, HumanCheck } from './human-check.tsx';
import { renderPage } from '#web/test/render-page.tsx';
import { fakeApi, raw } from '#web/test/fake-api.ts';

// jsdom has no Web Workers, so the proof of work itself is left to the browser journeys; here the widget's
// events are played as it sends them (statechange with {state, payload}).
const widget = () => screen.getByTestId('human-check');
const changeState = (state: string, payload: string | null) =>
  act(() => {
    widget().dispatchEvent(new CustomEvent('statechange', { detail: { state, payload } }));
  });

const api = fakeApi();
const fetchMock = api.fetch;

describe('HumanCheck', () => {
  it('is the ALTCHA widget, in a group named for screen readers, fetching our challenge', () => {
    renderPage(<HumanCheck onChange={() => undefined} />);
    const group = screen.getByRole('group', { name: humanCheckMessages.label });
    expect(group.contains(widget())).toBe(true);
    expect(widget().tagName.toLowerCase()).toBe('altcha-widget');
    // React 19 sets a custom element's known properties as properties, not attributes.
    expect((widget() as AltchaWidgetElement).challenge).toBe(HUMAN_CHECK_CHALLENGE_PATH);
    expect(customElements.get('altcha-widget')).toBeDefined();
  });

  it('hands over the payload once verified, and null when it expires or fails', () => {
    const onChange = vi.fn();
    renderPage(<HumanCheck onChange={onChange} />);
    onChange.mockClear();
    changeState('verifying', null);
    expect(onChange).toHaveBeenLastCalledWith(null);
    changeState('verified', 'eyJwYXlsb2FkIjoxfQ==');
    expect(onChange).toHaveBeenLastCalledWith('eyJwYXlsb2FkIjoxfQ==');
    changeState('expired', null);
    expect(onChange).toHaveBeenLastCalledWith(null);
    changeState('verified', 'c2Vjb25k');
    changeState('error', null);
    expect(onChange).toHaveBeenLastCalledWith(null);
  });

  it('starts over with a new widget when resetKey changes, forgetting the used payload', () => {
    const onChange = vi.fn();
    const { rerender } = renderPage(<HumanCheck onChange={onChange} resetKey={0} />);
    changeState('verified', 'Zmlyc3Q=');
    expect(onChange).toHaveBeenLastCalledWith('Zmlyc3Q=');
    const first = widget();
    rerender(<HumanCheck onChange={onChange} resetKey={1} />);
    expect(widget()).not.toBe(first);
    expect(onChange).toHaveBeenLastCalledWith(null);
    changeState('verified', 'c2Vjb25k');
    expect(onChange).toHaveBeenLastCalledWith('c2Vjb25k');
  });

  it('tells the latest onChange, not the one of the first render', () => {
    const first = vi.fn();
    const second = vi.fn();
    const { rerender } = renderPage(<HumanCheck onChange={first} />);
    rerender(<HumanCheck onChange={second} />);
    changeState('verified', 'bGF0ZXN0');
    expect(second).toHaveBeenLastCalledWith('bGF0ZXN0');
    expect(first).not.toHaveBeenCalledWith('bGF0ZXN0');
  });

  it("fetches its challenge as the app's calls go, with the session's bearer (issue 32)", async () => {
    api.on('GET', HUMAN_CHECK_CHALLENGE_PATH, raw(new Response('{}')));
    renderPage(<HumanCheck onChange={() => undefined} />);
    await act(() => Promise.resolve());
    // What the widgets fetch with: the page's signed-in session goes along, so the answer keeps the page's
    // anti-forgery cookie bound to it (the login form of a signed-in person posted with a cookie bound to nobody).
    expect(globalThis.$altcha.defaults.get('fetch')).toBe(fetchAsTheApp);
    setTokenSource(() => 'the-session');
    await fetchAsTheApp(HUMAN_CHECK_CHALLENGE_PATH, { headers: { Accept: 'application/json' } });
    let sent = new Headers(fetchMock.mock.calls[0]?.[1]?.headers);
    expect(sent.get('Authorization')).toBe('Bearer the-session');
    expect(sent.get('Accept')).toBe('application/json');
    // Never to another origin; nothing when signed out.
    await fetchAsTheApp('https://elsewhere.example.org/challenge');
    expect(new Headers(fetchMock.mock.calls[1]?.[1]?.headers).has('Authorization')).toBe(false);
    setTokenSource(() => null);
    await fetchAsTheApp(HUMAN_CHECK_CHALLENGE_PATH);
    sent = new Headers(fetchMock.mock.calls[2]?.[1]?.headers);
    expect(sent.has('Authorization')).toBe(false);
  });
});

afterEach(() => {
  setTokenSource(() => null);
});
