/** /db/{db} and /db/{db}/{schema}/{table} (spec 000 §2): the table list and the selected table's card. */
export function BrowserPage() {
  return <p>The database browser is being built.</p>;
}
