/*
 * How a filter or row body travels (spec 000 §7), apart from the schemas of sql.ts so the web app's HTTP client can
 * encode without loading Zod (decision 0033). sql.ts re-exports it.
 */

/** A filter or row as the spec's client sends it (send it with Content-Type text/plain). */
export function encodeBody(value: Record<string, unknown>): string {
  return btoa(encodeURIComponent(JSON.stringify(value)));
}
