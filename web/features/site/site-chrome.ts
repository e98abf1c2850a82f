import { createContext, useContext, useLayoutEffect } from 'react';

/** Set by the site's layout: whether a page asks for the header, banner and footer to be left out. */
export const SiteChromeContext = createContext<(hidden: boolean) => void>(() => undefined);

/**
 * Spec 001 §2 ("the header can be hidden by a service flag"): a page that calls this shows without the site's
 * header, banner and footer while it is mounted (the content creator at /cc).
 */
export function useHideSiteChrome(): void {
  const setHidden = useContext(SiteChromeContext);
  useLayoutEffect(() => {
    setHidden(true);
    return () => setHidden(false);
  }, [setHidden]);
}
