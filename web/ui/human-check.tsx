/*
 * The human check: the self-hosted ALTCHA widget (a web component) solving the challenge of GET /api/captcha.
 *
 * Why the main `altcha` bundle works under our policy (docs/decisions/0018-browser-security-headers.md): it inserts
 * its one <style> element once, when the module loads, and puts on it the nonce it reads from
 * <meta name="csp-nonce"> (index.html carries it before any script runs); it solves in Web Workers made from blob:
 * addresses, which worker-src allows; and it fetches the challenge from our own origin (connect-src 'self').
 *
 * Forms that hold it should be `noValidate`: the widget marks its checkbox `required`, and a form's own message
 * ('Invalid form... Please try again.' from the contract's humanCheckToken) should speak, not the browser's.
 */
import 'altcha';
// The widget's JSX element type (altcha-widget with its attributes), for React 19's custom-element support.
import type {} from 'altcha/types/react';
import { Fragment, useEffect, useId, useRef } from 'react';
import type { CSSProperties } from 'react';
import { Box, VisuallyHidden } from '@mantine/core';
import { humanCheckMessages } from '#common/messages.ts';
import { requestHeaders } from '#web/api/client.ts';

/** Where the widget fetches its challenge (ALTCHA's own JSON, not the API envelope). */
export const HUMAN_CHECK_CHALLENGE_PATH = '/api/captcha';

type HumanCheckProps = {
  /** The base64 payload the server takes as `token` once the check is solved; null when it is not (yet, or any more). */
  onChange: (payload: string | null) => void;
  /** Change it to start over with a fresh challenge (a solution works once: after every failed submit). */
  resetKey?: number;
};

/**
 * The widget's own requests (its challenge), sent as the app's calls are: with the session's bearer when someone is
 * signed in. The challenge's answer then keeps the browser's anti-forgery cookie bound to that session; fetched
 * without it, the answer rebound the cookie to nobody, and the login form's POST of a signed-in person (the 401
 * page's Login, to sign in as someone else) was refused 403 (issue 32).
 */
export const fetchAsTheApp: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  const url = new URL(input instanceof Request ? input.url : String(input), window.location.href);
  // The bearer goes to our own origin only.
  const authorization =
    url.origin === window.location.origin
      ? requestHeaders('GET', url.pathname, null, '*/*').get('Authorization')
      : null;
  if (authorization && !headers.has('Authorization')) headers.set('Authorization', authorization);
  return fetch(input, { ...init, headers });
};
// Every widget of the app fetches so (ALTCHA's defaults, read by each widget as it starts).
globalThis.$altcha.defaults.set('fetch', fetchAsTheApp);

/** What the widget's statechange event carries. */
type StateChangeDetail = { state?: string; payload?: string | null };

/** The widget's colours follow the Mantine scheme, so it matches the page in light and dark. */
const widgetStyle = {
  '--altcha-max-width': '100%',
  '--altcha-border-radius': 'var(--mantine-radius-md)',
  '--altcha-color-base': 'var(--mantine-color-body)',
  '--altcha-color-base-content': 'var(--mantine-color-text)',
  '--altcha-border-color': 'var(--mantine-color-default-border)',
  '--altcha-color-primary': 'var(--mantine-primary-color-filled)',
  '--altcha-color-error': 'var(--mantine-color-error)',
  display: 'block',
} as CSSProperties;

/** The human check of the sign-in, sign-up and forgot-password forms (spec 000 §2, §5): a labelled group holding
 * the widget; `onChange` hears the payload when solved and null when reset, expired or failed. */
export function HumanCheck({ onChange, resetKey = 0 }: HumanCheckProps) {
  const widgetRef = useRef<HTMLElement>(null);
  const onChangeRef = useRef(onChange);
  const labelId = useId();

  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  // A new resetKey mounts a new widget (key below): the old payload is gone with it, so say so.
  useEffect(() => {
    const widget = widgetRef.current;
    onChangeRef.current(null);
    if (!widget) return undefined;
    const onStateChange = (event: Event) => {
      const detail = (event as CustomEvent<StateChangeDetail>).detail;
      const solved =
        detail.state === 'verified' && typeof detail.payload === 'string' && detail.payload !== '';
      onChangeRef.current(solved ? (detail.payload ?? null) : null);
    };
    widget.addEventListener('statechange', onStateChange);
    return () => widget.removeEventListener('statechange', onStateChange);
  }, [resetKey]);

  return (
    <Box role="group" aria-labelledby={labelId} w="100%" maw={400}>
      <VisuallyHidden id={labelId}>{humanCheckMessages.label}</VisuallyHidden>
      <Fragment key={resetKey}>
        <altcha-widget
          ref={widgetRef}
          challenge={HUMAN_CHECK_CHALLENGE_PATH}
          name="token"
          auto="off"
          style={widgetStyle}
          data-testid="human-check"
        />
      </Fragment>
    </Box>
  );
}
