/** Spec 001 §3: a template's alignment of its content inside its box. */
export type Alignment = 'start' | 'center' | 'end';

export const alignments: readonly { value: Alignment; label: string }[] = [
  { value: 'start', label: 'Start' },
  { value: 'center', label: 'Center' },
  { value: 'end', label: 'End' },
];

/** Start, Center and End as flex alignments. */
export const flexAlignment: Record<Alignment, string> = {
  start: 'flex-start',
  center: 'center',
  end: 'flex-end',
};

/** Spec 001 §3: a template's parameter; `@name` in the html stands for its value. */
export interface TemplateParam {
  name: string;
  friendlyName: string;
  value: string;
}

/** Spec 001 §3: a template. Width in vw, height in vh (one grid cell each). */
export interface Template {
  name: string;
  html: string;
  width: number;
  height: number;
  horizontalAlignment: Alignment;
  verticalAlignment: Alignment;
  params: TemplateParam[];
}

/** Spec 001 §2: the two templates of the Templates modal. */
export const templates: readonly Template[] = [
  {
    name: 'Heading 1',
    html: '<h1>@text</h1>',
    width: 12,
    height: 6,
    horizontalAlignment: 'start',
    verticalAlignment: 'start',
    params: [{ name: 'text', friendlyName: 'Text', value: 'Title' }],
  },
  {
    name: 'Heading 2',
    html: '<h2>@text</h2>',
    width: 8,
    height: 4,
    horizontalAlignment: 'start',
    verticalAlignment: 'start',
    params: [{ name: 'text', friendlyName: 'Text', value: 'Title' }],
  },
];

/** The template of that name (a stored layout names its template; the html always comes from here). */
export function templateNamed(name: string): Template | undefined {
  return templates.find((t) => t.name === name);
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/**
 * The template's html with each `@param` replaced by its value, escaped: only the templates' own markup is html,
 * whatever a person typed is text.
 */
export function renderTemplate(html: string, params: readonly TemplateParam[]): string {
  // Longest names first, so @title is not eaten by @t.
  const sorted = [...params].sort((a, b) => b.name.length - a.name.length);
  return sorted.reduce((out, p) => out.replaceAll(`@${p.name}`, escapeHtml(p.value)), html);
}

/** The text a person reads for an element: its parameters' values. */
export function templateText(params: readonly TemplateParam[]): string {
  return params.map((p) => p.value).join(' ');
}
