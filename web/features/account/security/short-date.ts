/** A date of the API (ISO-8601 UTC) as the person's short local date (spec 000 §9: dates in a short format), e.g.
 * 'Nov 24, 2026'; '' for none or an unreadable one. */
export function shortDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleDateString(undefined, { dateStyle: 'medium' });
}
