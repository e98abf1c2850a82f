import { privacyPolicy } from '#common/content/legal.ts';
import { LegalDocumentPage } from '#web/features/legal/legal-document-page.tsx';

/** /privacy-policy (spec 001 §2, §9): static text, effective January 1st 2024. */
export function PrivacyPolicyPage() {
  return <LegalDocumentPage document={privacyPolicy} />;
}
