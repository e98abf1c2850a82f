/** The account page's Security section (spec 000 §2) — placeholder until it is built (issue 12). */
export function SecuritySection() {
  return null;
}
