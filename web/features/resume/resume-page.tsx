import { lazy, Suspense } from 'react';
import { PageLoader } from '#web/ui/page-loader.tsx';

// The resume and its content load on their own: the loading indicator first, then the resume (spec 001 §2, §4).
const ResumeView = lazy(() =>
  import('#web/features/resume/resume-view.tsx').then((m) => ({ default: m.ResumeView })),
);

/** /resume: a loading indicator, then the founder's resume (spec 001 §2 Resume). */
export function ResumePage() {
  return (
    <Suspense fallback={<PageLoader label="Loading resume" />}>
      <ResumeView />
    </Suspense>
  );
}
