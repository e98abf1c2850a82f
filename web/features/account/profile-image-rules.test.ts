import { describe, expect, it } from 'vitest';
import { PROFILE_IMAGE_MAX_BYTES } from '#common/contract/account.ts';
import { accountApiMessages as am } from '#common/messages.ts';
import { imageFileProblem, imageSource, readProfileImage, withoutDataPrefix } from './profile-image-rules.ts';

describe('the profile image rules', () => {
  it('takes PNG, JPEG, GIF and WebP up to 1 MB', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'IMAGE/PNG']) {
      expect(imageFileProblem({ type, size: 10 })).toBeNull();
    }
    expect(imageFileProblem({ type: 'image/png', size: PROFILE_IMAGE_MAX_BYTES })).toBeNull();
  });

  it('refuses another type, and a file over 1 MB, with a sentence saying which', () => {
    expect(imageFileProblem({ type: 'image/svg+xml', size: 10 })).toBe(am.imageType);
    expect(imageFileProblem({ type: 'application/pdf', size: 10 })).toBe(am.imageType);
    expect(imageFileProblem({ type: '', size: 10 })).toBe(am.imageType);
    expect(imageFileProblem({ type: 'image/png', size: PROFILE_IMAGE_MAX_BYTES + 1 })).toBe(
      am.imageTooLarge(1),
    );
  });

  it('removes the data-URL prefix and leaves bare base64 as it is', () => {
    expect(withoutDataPrefix('data:image/png;base64,iVBORw0KGgo=')).toBe('iVBORw0KGgo=');
    expect(withoutDataPrefix('iVBORw0KGgo=')).toBe('iVBORw0KGgo=');
  });

  it('shows an image by its type, one without a known type as JPEG, and a data: URL as it is', () => {
    expect(imageSource({ image: 'AAAA', fileType: 'image/png' })).toBe('data:image/png;base64,AAAA');
    expect(imageSource({ image: 'AAAA', fileType: '' })).toBe('data:image/jpeg;base64,AAAA');
    expect(imageSource({ image: 'AAAA', fileType: 'text/html' })).toBe('data:image/jpeg;base64,AAAA');
    expect(imageSource({ image: 'data:image/gif;base64,R0lG', fileType: 'image/png' })).toBe(
      'data:image/gif;base64,R0lG',
    );
  });

  it('reads a file as base64 without the prefix, with its name and type', async () => {
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const reading = await readProfileImage(new File([bytes], 'me.png', { type: 'image/png' }));
    expect(reading).toEqual({
      ok: true,
      image: { image: btoa(String.fromCharCode(...bytes)), fileName: 'me.png', fileType: 'image/png' },
    });
  });

  it('does not read a file that breaks the rules', async () => {
    const reading = await readProfileImage(new File(['<svg/>'], 'me.svg', { type: 'image/svg+xml' }));
    expect(reading).toEqual({ ok: false, message: am.imageType });
  });
});
