import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROFILE_IMAGE_MAX_INPUT_PIXELS, type User } from '#common/contract/account.ts';
import { accountApiMessages as am } from '#common/messages.ts';
import { AccountClient } from '#server/test/account-client.ts';
import { buildUser } from '#server/test/factories.ts';
import { buildTestApp, type TestApp } from '#server/test/test-app.ts';
import { expectNoLeak } from './harness.ts';

/*
 * Profile images are the one file a person uploads into the app store: a file that only starts like an image, a
 * tiny file that claims billions of pixels (a decompression bomb) and a file name that is a path must all fail to
 * reach it. What is kept is the app's own re-encoding of the decoded pixels, under a name of the app's choosing.
 */

/** A PNG chunk: length, type, data and the CRC of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A small, well-formed PNG header that claims width × height RGB pixels, with a few bytes of pixel data. */
function claimedPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(8))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('crafted profile images', () => {
  let t: TestApp;
  let browser: AccountClient;

  beforeAll(async () => {
    t = await buildTestApp();
    browser = new AccountClient(t);
    browser.token = (await buildUser(t)).token;
  });
  afterAll(() => t?.close());

  const upload = (bytes: Buffer, fileType: string, fileName = 'me.png') =>
    browser.post<User>('/api/account', {
      user_Images: [{ image: bytes.toString('base64'), fileName, fileType }],
    });
  const stored = () => t.store.db.selectFrom('user_images').selectAll().execute();

  it('refuses a PNG signature followed by HTML, and keeps nothing', async () => {
    const polyglot = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from('<html><script>alert(document.cookie)</script></html>'),
    ]);
    const answer = await upload(polyglot, 'image/png');
    expect(answer.status).toBe(400);
    expect(answer.message).toBe(am.imageUnreadable);
    expectNoLeak(answer.response);
    expect(await stored()).toEqual([]);
  });

  it('refuses a tiny file that claims 20,000 × 20,000 pixels without decoding them', async () => {
    const bomb = claimedPng(20_000, 20_000);
    expect(bomb.length).toBeLessThan(100);
    const answer = await upload(bomb, 'image/png');
    expect(answer.status).toBe(400);
    expect(answer.message).toBe(am.imageTooManyPixels(PROFILE_IMAGE_MAX_INPUT_PIXELS / 1_000_000));
    expect(await stored()).toEqual([]);
  });

  it('keeps a re-encoded image under its own name, never the given one, without the original metadata', async () => {
    const original = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366cc' } })
      .png()
      .withMetadata({ exif: { IFD0: { Copyright: 'secret-location-47.1N' } } })
      .toBuffer();
    const answer = await upload(original, 'image/png', '../../x.png');
    expect(answer.status, answer.message ?? '').toBe(200);
    const [image] = answer.data.user_Images;
    expect(image?.fileName).toBe('profile.png');
    expect(image?.fileType).toBe('image/png');
    const kept = Buffer.from(image!.image, 'base64');
    expect(kept.includes(Buffer.from('secret-location'))).toBe(false);
    const metadata = await sharp(kept).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(['png', 40, 30]);
    expect((await stored()).map((row) => row.file_name)).toEqual(['profile.png']);
  });

  it('shrinks a large photo to the profile size and keeps JPEG as JPEG', async () => {
    const photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#884422' } })
      .jpeg()
      .toBuffer();
    const answer = await upload(photo, 'image/jpeg', 'C:\\Users\\me\\photo.jpg');
    expect(answer.status, answer.message ?? '').toBe(200);
    const [image] = answer.data.user_Images;
    expect([image?.fileName, image?.fileType]).toEqual(['profile.jpg', 'image/jpeg']);
    const metadata = await sharp(Buffer.from(image!.image, 'base64')).metadata();
    expect(Math.max(metadata.width ?? 0, metadata.height ?? 0)).toBeLessThanOrEqual(512);
  });

  it('refuses an image whose content is not the type it claims', async () => {
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    const answer = await upload(gif, 'image/png');
    expect(answer.status).toBe(400);
    expect(answer.message).toBe(am.imageType);
  });
});
