import { Navigate, useSearchParams } from 'react-router';
import { HOME_PATH } from '#common/content/site.ts';
import { safeReturnPath } from '#web/session/safe-return-path.ts';

/**
 * /redirect?r=<path> (spec 000 §2): the internal hop that forces re-navigation. It replaces itself with the page in
 * `r`, so that page is built anew even when it is the one already shown (the hop leaves no history entry). Only a
 * page of this app is followed (web/session/safe-return-path.ts); anything else, or no `r`, goes home.
 */
export function RedirectPage() {
  const [params] = useSearchParams();
  const target = safeReturnPath(params.get('r')) ?? HOME_PATH;
  return <Navigate to={target} replace />;
}
