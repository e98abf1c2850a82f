import { describe, expect, it } from 'vitest';
import { compactJson, isJsonColumn, parseJson, prettyJson } from './json-value.ts';

describe('JSON values', () => {
  it('knows JSON columns by their type', () => {
    expect(isJsonColumn({ type: 'jsonb' })).toBe(true);
    expect(isJsonColumn({ type: 'json' })).toBe(true);
    expect(isJsonColumn({ type: 'JSON' })).toBe(true);
    expect(isJsonColumn({ type: 'text' })).toBe(false);
    expect(isJsonColumn({ type: 'jsonpath' })).toBe(false);
  });

  it('writes JSON on one line, strings as written', () => {
    expect(compactJson('{"a": 1, "b": [true, null]}')).toBe('{"a":1,"b":[true,null]}');
    expect(compactJson('{\n  "say": "two  spaces, \\"quoted\\" "\n}')).toBe(
      '{"say":"two  spaces, \\"quoted\\" "}',
    );
    expect(compactJson('not  json here')).toBe('not json here');
  });

  it('reads JSON as a tree, numbers keeping every digit', () => {
    expect(parseJson('{"big": 12345678901234567890, "x": [1.50, "s", false]}')).toEqual({
      kind: 'object',
      entries: [
        ['big', { kind: 'number', text: '12345678901234567890' }],
        [
          'x',
          {
            kind: 'array',
            items: [
              { kind: 'number', text: '1.50' },
              { kind: 'string', value: 's' },
              { kind: 'literal', text: 'false' },
            ],
          },
        ],
      ],
    });
    expect(parseJson(' "\\u00e9" ')).toEqual({ kind: 'string', value: 'é' });
    expect(parseJson('[]')).toEqual({ kind: 'array', items: [] });
  });

  it('refuses what is not JSON', () => {
    for (const text of ['', '{', '{"a":}', '[1,]', 'nul', '{"a":1} x', "{'a':1}", '01'])
      expect(parseJson(text), text).toBeNull();
    expect(parseJson('['.repeat(300) + ']'.repeat(300))).toBeNull();
  });

  it('pretty-prints with two spaces a level', () => {
    expect(prettyJson('{"a":[1,{"b":null}],"c":{}}')).toBe(
      '{\n  "a": [\n    1,\n    {\n      "b": null\n    }\n  ],\n  "c": {}\n}',
    );
    expect(prettyJson('nope')).toBeNull();
  });
});
