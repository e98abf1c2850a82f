import { PROFILE_IMAGE_MAX_BYTES, profileImageTypes, type UserImage } from '#common/contract/account.ts';
import { accountApiMessages as am } from '#common/messages.ts';

/** What reading a chosen file gives: the image as the API takes it, or the sentence to show. */
export type ImageReading = { ok: true; image: UserImage } | { ok: false; message: string };

const MEGABYTE = 1024 * 1024;

/** The contract's rule for a chosen file before it is read: a PNG, JPEG, GIF or WebP of at most 1 MB. The server
 * checks again (and decodes it); this only saves sending a file it would refuse. Null when the file may be read. */
export function imageFileProblem(file: Pick<File, 'type' | 'size'>): string | null {
  if (!profileImageTypes.some((type) => type === file.type.toLowerCase())) return am.imageType;
  if (file.size > PROFILE_IMAGE_MAX_BYTES) return am.imageTooLarge(PROFILE_IMAGE_MAX_BYTES / MEGABYTE);
  return null;
}

/** base64 of a data: URL's content, without the `data:…;base64,` prefix (spec 000 §5). */
export function withoutDataPrefix(dataUrl: string): string {
  const comma = dataUrl.indexOf(',');
  return dataUrl.startsWith('data:') && comma >= 0 ? dataUrl.slice(comma + 1) : dataUrl;
}

/** What an <img> shows for a stored image: as it is when it has a data: prefix, else its own type, and an image
 * without a known type as JPEG (spec 000 §5: "an image without a data: prefix is treated as jpeg"). */
export function imageSource(image: Pick<UserImage, 'image' | 'fileType'>): string {
  if (image.image.startsWith('data:')) return image.image;
  const type = profileImageTypes.some((t) => t === image.fileType.toLowerCase())
    ? image.fileType.toLowerCase()
    : 'image/jpeg';
  return `data:${type};base64,${image.image}`;
}

/** Checks a chosen file and reads it as base64 without the data-URL prefix, with its name and type. */
export async function readProfileImage(file: File): Promise<ImageReading> {
  const problem = imageFileProblem(file);
  if (problem) return { ok: false, message: problem };
  try {
    const dataUrl = await new Promise<string>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () =>
        typeof reader.result === 'string' ? resolve(reader.result) : reject(new Error());
      reader.onerror = () => reject(reader.error ?? new Error());
      reader.readAsDataURL(file);
    });
    return {
      ok: true,
      image: { image: withoutDataPrefix(dataUrl), fileName: file.name, fileType: file.type.toLowerCase() },
    };
  } catch {
    return { ok: false, message: am.imageUnreadable };
  }
}
