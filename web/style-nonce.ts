/*
 * The page's style nonce (docs/decisions/0018-browser-security-headers.md). The server renders index.html with a
 * one-time nonce in <meta name="csp-nonce"> and allows only the <style> elements that carry it; every piece that
 * inserts a <style> must put it on: Mantine (getStyleNonce), the ALTCHA widget (reads the same meta tag itself),
 * and react-remove-scroll, Mantine's scroll lock for modals and drawers (reads webpack's global nonce).
 */

declare global {
  // The global that get-nonce (react-style-singleton, under react-remove-scroll) reads.
  var __webpack_nonce__: string | undefined;
}

/** The nonce of this page; null in tests and under Vite's dev server, which send no policy. */
export function styleNonce(): string | null {
  return document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content || null;
}

/** Gives the nonce to the libraries that read it from a global; call before the app renders. */
export function shareStyleNonce(): void {
  const nonce = styleNonce();
  if (nonce) globalThis.__webpack_nonce__ = nonce;
}
