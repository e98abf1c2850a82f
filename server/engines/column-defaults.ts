import type { CellValue, Column } from '#common/contract/sql.ts';
import type { CatalogColumn } from './adapter.ts';
import { checkValue, decodeCommon } from './wire-values.ts';

/*
 * A column's default as a new row in the editor shows it (docs/decisions/0047-row-editor-fields-and-grid-keys.md).
 * Each adapter reads its engine's default text into a DefaultLiteral (the engine's quoting and casts are its own);
 * this module makes the constant a wire value of the column's type, the value the database would store. A default
 * the database works out at insert time (now(), a sequence, uuid()) or one this cannot read as a value of the column
 * is an expression: the editor says the database sets it, rather than show a value that may be wrong.
 */

/** A default as an adapter read it: a constant's text without its quotes and casts, NULL, or an expression. */
export type DefaultLiteral = { constant: string } | 'null' | 'expression';

/** The default's wire fields of a column. */
export type ColumnDefault = Pick<Column, 'defaultConstant' | 'defaultIsExpression'>;

/** A number as SQL writes it. */
export const NUMBER_LITERAL = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** The text of a SQL string literal quoted with `quote` (a doubled quote inside is one), or null when `raw` is not
 * one whole literal. */
export function quotedText(raw: string, quote = "'"): string | null {
  if (raw.length < 2 || !raw.startsWith(quote) || !raw.endsWith(quote)) return null;
  const inner = raw.slice(1, -1);
  // A lone quote inside means two literals or more (e.g. 'a' || 'b'), not one.
  if (inner.split(quote + quote).some((part) => part.includes(quote))) return null;
  return inner.replaceAll(quote + quote, quote);
}

/** `raw` without parentheses that wrap all of it: ((1)) → 1; (1) + (2) stays. */
export function withoutParentheses(raw: string): string {
  let text = raw.trim();
  while (text.startsWith('(') && text.endsWith(')') && wrapsAll(text)) text = text.slice(1, -1).trim();
  return text;
}

function wrapsAll(text: string): boolean {
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'") quoted = !quoted;
    else if (!quoted && c === '(') depth++;
    else if (!quoted && c === ')') {
      depth--;
      if (depth === 0 && i < text.length - 1) return false;
    }
  }
  return depth === 0;
}

const NONE: ColumnDefault = { defaultConstant: null, defaultIsExpression: false };
const EXPRESSION: ColumnDefault = { defaultConstant: null, defaultIsExpression: true };

/**
 * The wire fields of a column's default: the constant as a value of the column (what a write of it would store), or
 * an expression. `literal` undefined (an adapter that does not read defaults) counts as an expression when the
 * column has a default at all.
 */
export function columnDefault(
  column: Omit<CatalogColumn, 'defaultLiteral'>,
  literal: DefaultLiteral | undefined,
): ColumnDefault {
  if (column.defaultValue === null || literal === 'null') return NONE;
  if (literal === undefined || literal === 'expression') return EXPRESSION;
  const value = constantValue({ ...column, ...NONE } as Column, literal.constant);
  return value === null ? EXPRESSION : { defaultConstant: value, defaultIsExpression: false };
}

/** A constant's text as the column's wire value, or null when it is not one the editor can show. */
function constantValue(column: Column, text: string): CellValue {
  if (['Binary', 'image'].includes(column.typeGroup)) return null;
  const typed =
    column.typeGroup === 'Date' || column.typeGroup === 'Time'
      ? isoDateTime(text)
      : column.typeGroup === 'Number'
        ? text.trim().replace(/^\+/, '')
        : text;
  if (column.typeGroup === 'Number' && !NUMBER_LITERAL.test(typed)) return null;
  try {
    const checked = checkValue(column, typed);
    if (checked === null || Buffer.isBuffer(checked)) return null;
    const value = decodeCommon(column, checked);
    return typeof value === 'string' && column.typeGroup === 'Number' && column.scale > 0 && !/e/i.test(value)
      ? withScale(value, column.scale)
      : value;
  } catch {
    return null;
  }
}

/** A date-time as engines write it in a default ('2020-01-02 03:04:05+00') in the wire's ISO form. */
function isoDateTime(text: string): string {
  return text
    .trim()
    .replace(/^(\d{4}-\d{2}-\d{2}) (\d)/, '$1T$2')
    .replace(/(\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?[+-]\d{2})$/, '$1:00');
}

/** A decimal's text with exactly `scale` decimals, as the wire writes decimals ("1.5" → "1.50"). */
function withScale(text: string, scale: number): string {
  const [whole = '0', fraction = ''] = text.replace(/^\+/, '').split('.');
  return `${whole}.${fraction.padEnd(scale, '0')}`;
}
