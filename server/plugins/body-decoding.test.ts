import { describe, expect, it } from 'vitest';
import { encodeBody } from '#common/contract/sql.ts';
import { ApiError } from '#server/plugins/error-envelope.ts';
import { decodeBody } from './body-decoding.ts';

function refusal(work: () => unknown): string {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).statusCode).toBe(400);
    return (error as ApiError).message;
  }
  throw new Error('expected a 400');
}

const latin1Base64 = (text: string) => Buffer.from(text, 'latin1').toString('base64');

describe('decoding filter and row bodies', () => {
  const value = { Name: 'Ærø "quoted" 漢字 🎵 100% & more', Id: 7, Flag: true, Gone: null };

  it('reads the spec’s encoding as text/plain, as a JSON string, and the plain object', () => {
    const text = encodeBody(value);
    expect(decodeBody(text, 'text', 'row')).toEqual(value);
    expect(decodeBody(`  ${text}\n`, 'text', 'row')).toEqual(value);
    expect(decodeBody(JSON.stringify(text), 'json', 'row')).toEqual(value);
    expect(decodeBody(JSON.stringify(value), 'json', 'row')).toEqual(value);
    // Unpadded and URL-safe base64 too.
    const urlSafe = Buffer.from(encodeURIComponent(JSON.stringify(value))).toString('base64url');
    expect(decodeBody(urlSafe, 'text', 'row')).toEqual(value);
  });

  it('says which step failed for each malformed form', () => {
    expect(refusal(() => decodeBody('', 'text', 'filter'))).toMatch(/^The filter is empty\. Send base64/);
    expect(refusal(() => decodeBody('{"Name":"x"}', 'text', 'filter'))).toBe(
      'The filter is not valid base64: "{" at position 1 is not a base64 character. Send ' +
        'base64(encodeURIComponent(JSON.stringify(filter))) with Content-Type text/plain, or the filter as a JSON ' +
        'object with Content-Type application/json.',
    );
    expect(refusal(() => decodeBody('abcde', 'text', 'row'))).toMatch(
      /^The row is not valid base64: its length or padding is wrong\./,
    );
    expect(refusal(() => decodeBody('ab=c', 'text', 'row'))).toMatch(/^The row is not valid base64/);
    expect(refusal(() => decodeBody(latin1Base64('%7B%22a%22%3A%E0%A4%A'), 'text', 'row'))).toMatch(
      /^The row's URL encoding is broken: "%" at position 20 is not followed by two hexadecimal digits\./,
    );
    expect(refusal(() => decodeBody(latin1Base64('%FF%FE'), 'text', 'row'))).toMatch(
      /^The row's URL encoding is broken: its %-escapes are not valid UTF-8\./,
    );
    expect(refusal(() => decodeBody(latin1Base64('{"a": 1}'), 'text', 'row'))).toMatch(
      /^The row decodes from base64, but what it holds is not URL-encoded text \(encodeURIComponent\)/,
    );
    expect(refusal(() => decodeBody(btoa(encodeURIComponent('{"a": ')), 'text', 'row'))).toMatch(
      /^The row \(after base64 and URL decoding\) is not valid JSON \(.+\)\. Send/,
    );
    expect(refusal(() => decodeBody(btoa(encodeURIComponent('[1]')), 'text', 'row'))).toBe(
      'The row must be a JSON object of column name to value, like {"Name":"New name"}, not an array.',
    );
    expect(refusal(() => decodeBody(btoa(encodeURIComponent('"x"')), 'text', 'filter'))).toMatch(
      /not a string\.$/,
    );
    expect(refusal(() => decodeBody('{"a":', 'json', 'row'))).toMatch(
      /^The row is not valid JSON \(.+\)\. Send/,
    );
    expect(refusal(() => decodeBody(' ', 'json', 'row'))).toMatch(/^The row is empty\./);
    expect(refusal(() => decodeBody('"%%%"', 'json', 'row'))).toMatch(/^The row is not valid base64/);
    expect(refusal(() => decodeBody('true', 'json', 'row'))).toMatch(/not a boolean\.$/);
    expect(refusal(() => decodeBody('{"__proto__": {"x": 1}}', 'json', 'row'))).toBe(
      '__proto__ is not a column name.',
    );
    expect(refusal(() => decodeBody(encodeBody(JSON.parse('{"__proto__": 1}')), 'text', 'row'))).toBe(
      '__proto__ is not a column name.',
    );
    // Spelled with escapes, nested: the same key once parsed.
    expect(refusal(() => decodeBody('{"a": {"\\u005f_proto\\u005F_": 1}}', 'json', 'row'))).toBe(
      '__proto__ is not a column name.',
    );
    expect(decodeBody('{"note": "__proto__ in a value", "b": "\\u00e9"}', 'json', 'row')).toEqual({
      note: '__proto__ in a value',
      b: 'é',
    });
  });
});
