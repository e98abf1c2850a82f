import type { Column } from '#common/contract/sql.ts';

/*
 * JSON values (docs/decisions/0064-rich-values.md): a column whose native type is json or jsonb (PostgreSQL json,
 * jsonb; MariaDB and MySQL JSON; SQLite columns declared JSON) holds JSON text. The grid writes it on one line
 * without the spaces between its tokens; the value panel shows it as a tree. Neither goes through JSON.parse: a
 * number keeps every digit it was written with (12345678901234567890 stays so), as the grid's other numbers do.
 */

/** Whether the column's type says its values are JSON text. */
export const isJsonColumn = (column: Pick<Column, 'type'>) => /^jsonb?$/i.test(column.type.trim());

/** JSON text on one line: the white space between tokens dropped, strings kept as written. Text that is not JSON
 * comes back with its runs of white space outside strings made one space at most. */
export function compactJson(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const character = text[i] ?? '';
    if (inString) {
      out += character;
      if (character === '\\') {
        out += text[i + 1] ?? '';
        i += 1;
      } else if (character === '"') inString = false;
    } else if (character === '"') {
      inString = true;
      out += character;
    } else if (character === ' ' || character === '\n' || character === '\r' || character === '\t') {
      // Dropped between tokens; kept as one space where two words would otherwise touch (not JSON, then).
      const previous = out[out.length - 1] ?? '';
      const next = text[i + 1] ?? '';
      if (/[\w.]/.test(previous) && /[\w.]/.test(next)) out += ' ';
    } else out += character;
  }
  return out;
}

/** A JSON value as a tree: numbers keep their text. */
export type JsonNode =
  | { kind: 'object'; entries: [key: string, value: JsonNode][] }
  | { kind: 'array'; items: JsonNode[] }
  | { kind: 'string'; value: string }
  | { kind: 'number'; text: string }
  | { kind: 'literal'; text: 'true' | 'false' | 'null' };

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/y;
const LITERAL = /true|false|null/y;
/** Deeper than this a value is not shown as a tree (a stack has its limits). */
const MAX_DEPTH = 200;

/** JSON text as a tree; null when it is not JSON. */
export function parseJson(text: string): JsonNode | null {
  let at = 0;
  const space = () => {
    while (at < text.length && ' \n\r\t'.includes(text[at] ?? '')) at += 1;
  };
  const fail = (): never => {
    throw new SyntaxError(`Not JSON at ${at}`);
  };
  const expect = (character: string) => {
    space();
    if (text[at] !== character) fail();
    at += 1;
  };
  const string = (): string => {
    // A JSON string is a JavaScript string literal's subset: JSON.parse reads just this token exactly.
    const start = at;
    at += 1;
    while (at < text.length && text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
    if (at >= text.length) fail();
    at += 1;
    return JSON.parse(text.slice(start, at)) as string;
  };
  const value = (depth: number): JsonNode => {
    if (depth > MAX_DEPTH) fail();
    space();
    const character = text[at];
    if (character === '{') {
      at += 1;
      const entries: [string, JsonNode][] = [];
      space();
      if (text[at] === '}') {
        at += 1;
        return { kind: 'object', entries };
      }
      for (;;) {
        space();
        if (text[at] !== '"') fail();
        const key = string();
        expect(':');
        entries.push([key, value(depth + 1)]);
        space();
        if (text[at] === ',') at += 1;
        else if (text[at] === '}') {
          at += 1;
          return { kind: 'object', entries };
        } else fail();
      }
    }
    if (character === '[') {
      at += 1;
      const items: JsonNode[] = [];
      space();
      if (text[at] === ']') {
        at += 1;
        return { kind: 'array', items };
      }
      for (;;) {
        items.push(value(depth + 1));
        space();
        if (text[at] === ',') at += 1;
        else if (text[at] === ']') {
          at += 1;
          return { kind: 'array', items };
        } else fail();
      }
    }
    if (character === '"') return { kind: 'string', value: string() };
    NUMBER.lastIndex = at;
    const number = NUMBER.exec(text);
    if (number) {
      at = NUMBER.lastIndex;
      return { kind: 'number', text: number[0] };
    }
    LITERAL.lastIndex = at;
    const literal = LITERAL.exec(text);
    if (literal) {
      at = LITERAL.lastIndex;
      return { kind: 'literal', text: literal[0] as 'true' | 'false' | 'null' };
    }
    return fail();
  };
  try {
    const root = value(0);
    space();
    return at === text.length ? root : null;
  } catch {
    return null;
  }
}

/** JSON text pretty-printed, two spaces a level, numbers as written; null when it is not JSON. */
export function prettyJson(text: string): string | null {
  const root = parseJson(text);
  return root === null ? null : printNode(root, '');
}

function printNode(node: JsonNode, indent: string): string {
  const inner = `${indent}  `;
  switch (node.kind) {
    case 'object':
      return node.entries.length === 0
        ? '{}'
        : `{\n${node.entries.map(([key, value]) => `${inner}${JSON.stringify(key)}: ${printNode(value, inner)}`).join(',\n')}\n${indent}}`;
    case 'array':
      return node.items.length === 0
        ? '[]'
        : `[\n${node.items.map((item) => `${inner}${printNode(item, inner)}`).join(',\n')}\n${indent}]`;
    case 'string':
      return JSON.stringify(node.value);
    default:
      return node.text;
  }
}
