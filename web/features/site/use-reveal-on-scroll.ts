import { useCallback, useState } from 'react';

/** Whether the person asked the system for less motion: then everything shows at once, without animation. */
function prefersReducedMotion(): boolean {
  return (
    typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches
  );
}

/**
 * Spec 001 §2: the home page's cards appear when scrolled into view. Returns a ref for the element to watch and
 * whether it has come into view; it stays revealed afterwards. Without IntersectionObserver, or with reduced motion
 * asked for, it is revealed from the start.
 */
export function useRevealOnScroll<T extends Element>(): [
  (element: T | null) => (() => void) | undefined,
  boolean,
] {
  const [revealed, setRevealed] = useState(
    () => typeof IntersectionObserver === 'undefined' || prefersReducedMotion(),
  );
  const ref = useCallback(
    (element: T | null) => {
      if (!element || revealed) return undefined;
      const observer = new IntersectionObserver(
        (entries) => {
          if (entries.some((entry) => entry.isIntersecting)) {
            setRevealed(true);
            observer.disconnect();
          }
        },
        // Counted as seen once its top is a little inside the window.
        { rootMargin: '0px 0px -64px 0px' },
      );
      observer.observe(element);
      return () => observer.disconnect();
    },
    [revealed],
  );
  return [ref, revealed];
}
