/** The image type of base64 data by its first bytes; JPEG when unknown (spec 000 §5: an image without a data:
 * prefix is treated as jpeg). */
export function imageType(base64: string): string {
  if (base64.startsWith('iVBORw0KGgo')) return 'image/png';
  if (base64.startsWith('R0lGOD')) return 'image/gif';
  if (base64.startsWith('UklGR')) return 'image/webp';
  if (base64.startsWith('Qk')) return 'image/bmp';
  return 'image/jpeg';
}

/** What an <img> shows for a stored image: as it is with a data: prefix, else with the type its bytes tell. */
export function imageSource(value: string): string {
  return value.startsWith('data:') ? value : `data:${imageType(value)};base64,${value}`;
}

/** base64 of a data: URL's content, without the `data:…;base64,` prefix (spec 000 §5). */
export function withoutDataPrefix(dataUrl: string): string {
  const comma = dataUrl.indexOf(',');
  return dataUrl.startsWith('data:') && comma >= 0 ? dataUrl.slice(comma + 1) : dataUrl;
}

/** Reads a chosen file as base64 without the data-URL prefix. */
export function readFileBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () =>
      typeof reader.result === 'string' ? resolve(withoutDataPrefix(reader.result)) : reject(new Error());
    reader.onerror = () => reject(reader.error ?? new Error());
    reader.readAsDataURL(file);
  });
}
