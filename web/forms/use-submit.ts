import { useCallback, useRef, useState } from 'react';

/**
 * The in-progress flag against double submit: `submit(work)` runs the work unless one is already running (a second
 * click in the same moment included, hence the ref), and `submitting` is true meanwhile for the button's loader.
 */
export function useSubmit(): {
  submitting: boolean;
  submit: <T>(work: () => Promise<T>) => Promise<T | undefined>;
} {
  const running = useRef(false);
  const [submitting, setSubmitting] = useState(false);
  const submit = useCallback(async <T>(work: () => Promise<T>) => {
    if (running.current) return undefined;
    running.current = true;
    setSubmitting(true);
    try {
      return await work();
    } finally {
      running.current = false;
      setSubmitting(false);
    }
  }, []);
  return { submitting, submit };
}
