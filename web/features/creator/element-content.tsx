import type { ElementSpec } from '#web/features/creator/creator-state.ts';
import { renderTemplate, templateNamed } from '#web/features/creator/templates.ts';

/**
 * An element's markup: its template's own html (always from templates.ts, never from storage) with the parameters'
 * values put in as escaped text.
 */
export function ElementContent({ spec }: { spec: ElementSpec }) {
  const template = templateNamed(spec.template);
  if (!template) return null;
  // The html is the template's constant markup; every parameter value in it is escaped by renderTemplate.
  return (
    <div
      style={{ textAlign: spec.horizontalAlignment }}
      dangerouslySetInnerHTML={{ __html: renderTemplate(template.html, spec.params) }}
    />
  );
}
