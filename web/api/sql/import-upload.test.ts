import { describe, expect, it } from 'vitest';
import { importMessages } from '#common/contract/imports.ts';
import { uploadAnswer } from './import-upload.ts';

const envelope = (isSuccess: boolean, data: unknown, message: string | null) =>
  JSON.stringify({ isSuccess, data, message });

describe('the upload’s answer', () => {
  it('is the import’s id', () => {
    const id = '0b7c3a52-5a8e-4e59-9d38-1a5cf1d1e0a1';
    expect(uploadAnswer(200, envelope(true, { id }, null))).toEqual({
      isSuccess: true,
      data: { id },
      message: null,
    });
  });

  it('carries the server’s sentence and status: the limit of a 413, the option of a 400, the right of a 403', () => {
    const tooLarge = importMessages.tooLarge(2_147_483_648);
    expect(uploadAnswer(413, envelope(false, null, tooLarge))).toMatchObject({
      isSuccess: false,
      message: tooLarge,
      status: 413,
    });
    const option = importMessages.badOption('delimiter', 'one character, or tab');
    expect(uploadAnswer(400, envelope(false, null, option))).toMatchObject({ message: option, status: 400 });
  });

  it('says what it can when a proxy answers without our envelope', () => {
    expect(uploadAnswer(413, '<html>Request Entity Too Large</html>')).toMatchObject({
      message: 'The file is too large for the server.',
      status: 413,
    });
    expect(uploadAnswer(502, '')).toMatchObject({
      message: 'The file could not be sent: check the connection and try again.',
    });
  });
});
