import { useNavigate } from 'react-router';
import { HOME_PATH } from '#common/content/site.ts';

/** Go Back: the previous page of this app, or home when the page was opened directly (nothing to go back to). */
export function useGoBack(): () => void {
  const navigate = useNavigate();
  return () => {
    // The router numbers its history entries; 0 means this app has no earlier entry in this tab.
    const state: unknown = window.history.state;
    const index = typeof state === 'object' && state !== null && 'idx' in state ? state.idx : 0;
    if (typeof index === 'number' && index > 0) void navigate(-1);
    else void navigate(HOME_PATH);
  };
}
