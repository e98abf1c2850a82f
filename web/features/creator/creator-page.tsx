import { useHideSiteChrome } from '#web/features/site/site-chrome.ts';
import { CreatorWorkspace } from '#web/features/creator/creator-workspace.tsx';

/** Spec 001 §2: the content creator at /cc, the whole viewport, without the site's header. */
export function CreatorPage() {
  useHideSiteChrome();
  return <CreatorWorkspace />;
}
