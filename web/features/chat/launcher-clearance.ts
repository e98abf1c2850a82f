import { useEffect, useState, type RefObject } from 'react';

/** What the launcher must not cover: the page's forms and their fields. */
const FORM_PARTS = 'main form, main input, main textarea, main select';

/**
 * Whether the chat launcher, where it stands, lies over a form of the page: at 375 px it covered the end of form
 * fields and buttons (issue 32). Checked when the page scrolls or changes size, and when its content does; the
 * launcher steps aside meanwhile and is back once the page has scrolled past the form. One that has the keyboard's
 * focus stays. A new page (`pathname`) and the consent banner's room below the launcher (`room`) are checked too.
 */
export function useLauncherOverForm(
  launcher: RefObject<HTMLElement | null>,
  active: boolean,
  pathname: string,
  room: string,
): boolean {
  const [over, setOver] = useState(false);
  useEffect(() => {
    if (!active) return;
    let frame = 0;
    const check = () => {
      frame = 0;
      const button = launcher.current;
      if (!button || document.activeElement === button) {
        setOver(false);
        return;
      }
      const box = button.getBoundingClientRect();
      const parts = document.querySelectorAll(FORM_PARTS);
      setOver([...parts].some((part) => overlaps(part.getBoundingClientRect(), box)));
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(check);
    };
    schedule();
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    const main = document.querySelector('main');
    const resized = main ? new ResizeObserver(schedule) : null;
    if (main) resized?.observe(main);
    return () => {
      if (frame !== 0) cancelAnimationFrame(frame);
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      resized?.disconnect();
    };
  }, [launcher, active, pathname, room]);
  // A launcher that is not shown covers nothing (its last answer is kept for when it shows again, and checked then).
  return active && over;
}

/** Whether two boxes share some area (a box without area shares none). */
function overlaps(a: DOMRect, b: DOMRect): boolean {
  if (a.width <= 0 || a.height <= 0 || b.width <= 0 || b.height <= 0) return false;
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}
