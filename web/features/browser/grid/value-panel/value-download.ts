/** A file name's unsafe characters (path separators, those Windows refuses, control characters) as underscores. */
const safeName = (text: string) =>
  // eslint-disable-next-line no-control-regex
  text.replace(/[\\/:*?"<>|\u0000-\u001f\u007f]/g, '_').slice(0, 80);

/** The download's name: <table>-<key>-<column>.bin (docs/decisions/0064-rich-values.md); the key's values joined by
 * '-', "row" when the row has no key. */
export function downloadName(table: string, key: Record<string, unknown> | null, column: string): string {
  const keyText = key ? Object.values(key).map(String).join('-') : 'row';
  return `${safeName(table)}-${safeName(keyText)}-${safeName(column)}.bin`;
}

/** Saves bytes as a file through a Blob and a hidden link (no server round trip: the bytes are in the page). */
export function downloadBytes(bytes: Uint8Array<ArrayBuffer>, name: string): void {
  const url = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file by the time the click returns; the URL is let go a moment later.
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Bytes as lines of hexadecimal, 16 a line, each led by its offset: "00000010  4A 46 …". */
export function hexLines(bytes: Uint8Array, limit: number): string[] {
  const lines: string[] = [];
  const end = Math.min(bytes.length, limit);
  for (let start = 0; start < end; start += 16) {
    const chunk = Array.from(bytes.subarray(start, Math.min(start + 16, end)), (byte) =>
      byte.toString(16).padStart(2, '0').toUpperCase(),
    );
    lines.push(`${start.toString(16).padStart(8, '0').toUpperCase()}  ${chunk.join(' ')}`);
  }
  return lines;
}
