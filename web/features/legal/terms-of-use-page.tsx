import { termsOfUse } from '#common/content/legal.ts';
import { LegalDocumentPage } from '#web/features/legal/legal-document-page.tsx';

/** /terms-of-use (spec 001 §2, §9): static text, effective January 1st 2024, 30 days' notice of changes. */
export function TermsOfUsePage() {
  return <LegalDocumentPage document={termsOfUse} />;
}
