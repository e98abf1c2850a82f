import {
  PROFILE_IMAGE_MAX_BYTES,
  PROFILE_IMAGE_MAX_INPUT_PIXELS,
  PROFILE_IMAGE_SIZE,
  profileImageTypes,
} from '#common/contract/account.ts';
import { accountApiMessages as am } from '#common/messages.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';

/*
 * A profile image is kept only as the app's own encoding of pixels it decoded itself (docs/decisions/0012-profile-images.md): a file
 * that merely starts like an image fails to decode, a small file claiming billions of pixels is refused from its
 * header before any pixel is decoded, metadata (EXIF location, comments) is dropped, and the name is the app's.
 */

type ImageType = (typeof profileImageTypes)[number];

/** What each accepted type is kept as: a GIF (perhaps animated) becomes its first frame as PNG. */
const KEPT_AS: Record<ImageType, { format: 'png' | 'jpeg' | 'webp'; type: ImageType; extension: string }> = {
  'image/png': { format: 'png', type: 'image/png', extension: 'png' },
  'image/gif': { format: 'png', type: 'image/png', extension: 'png' },
  'image/jpeg': { format: 'jpeg', type: 'image/jpeg', extension: 'jpg' },
  'image/webp': { format: 'webp', type: 'image/webp', extension: 'webp' },
};

/** The decoder's name for each type, to check the content is what the type says. */
const DECODED_FORMAT: Record<ImageType, string> = {
  'image/png': 'png',
  'image/gif': 'gif',
  'image/jpeg': 'jpeg',
  'image/webp': 'webp',
};

/** The image as the store keeps it. */
export interface ProfileImage {
  image: string;
  fileName: string;
  fileType: string;
}

/** Decodes an uploaded profile image within the limits and answers its re-encoding, or throws a 400 that says
 * what to fix. */
export async function profileImage(upload: { image: string; fileType: string }): Promise<ProfileImage> {
  const type = profileImageTypes.find((t) => t === upload.fileType.toLowerCase());
  if (!type || !/^[A-Za-z0-9+/]*={0,2}$/.test(upload.image)) throw new ApiError(400, am.imageType);
  const bytes = Buffer.from(upload.image, 'base64');
  if (bytes.length > PROFILE_IMAGE_MAX_BYTES) {
    throw new ApiError(400, am.imageTooLarge(PROFILE_IMAGE_MAX_BYTES / 1024 / 1024));
  }
  // sharp (libvips) is loaded on first use: most starts never need it.
  const { default: sharp } = await import('sharp');
  // The header alone first: its format and size are known before a single pixel is decoded.
  const header = await sharp(bytes, { limitInputPixels: false })
    .metadata()
    .catch(() => null);
  if (!header) throw new ApiError(400, am.imageUnreadable);
  if (header.format !== DECODED_FORMAT[type]) throw new ApiError(400, am.imageType);
  if ((header.width ?? 0) * (header.pageHeight ?? header.height ?? 0) > PROFILE_IMAGE_MAX_INPUT_PIXELS) {
    throw new ApiError(400, am.imageTooManyPixels(PROFILE_IMAGE_MAX_INPUT_PIXELS / 1_000_000));
  }
  const kept = KEPT_AS[type];
  // failOn 'error' refuses truncated or corrupt pixel data rather than keeping what decoded.
  const encoded = await sharp(bytes, { limitInputPixels: PROFILE_IMAGE_MAX_INPUT_PIXELS, failOn: 'error' })
    // Turned upright by its EXIF orientation before the metadata is dropped (sharp keeps none by default).
    .autoOrient()
    .resize(PROFILE_IMAGE_SIZE, PROFILE_IMAGE_SIZE, { fit: 'inside', withoutEnlargement: true })
    .toFormat(kept.format)
    .toBuffer()
    .catch(() => null);
  if (!encoded) throw new ApiError(400, am.imageUnreadable);
  return { image: encoded.toString('base64'), fileName: `profile.${kept.extension}`, fileType: kept.type };
}
