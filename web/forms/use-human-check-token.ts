import { useCallback, useState } from 'react';

/**
 * A form's human-check token: `onChange` for the HumanCheck widget keeps the solved payload in the form (through
 * `setToken`), `reset` empties it and gives the widget a new `resetKey`, which it needs after a failed submit (a
 * solution works only once).
 */
export function useHumanCheckToken(setToken: (token: string) => void) {
  const [resetKey, setResetKey] = useState(0);
  const onChange = useCallback((payload: string | null) => setToken(payload ?? ''), [setToken]);
  const reset = useCallback(() => {
    setToken('');
    setResetKey((key) => key + 1);
  }, [setToken]);
  return { resetKey, onChange, reset };
}
