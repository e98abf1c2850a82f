import type { CellValue, Column } from '#common/contract/sql.ts';
import type { EngineKind } from './engine.ts';
import { engineCapabilities } from './engine-capabilities.ts';

/*
 * CSV injection (OWASP "CSV Injection"): a spreadsheet opening a CSV reads a cell that starts with =, +, -, @, a
 * tab or a carriage return as a formula, so a text value such as =HYPERLINK("http://…","y") becomes a live link
 * (or worse) in the hands of whoever opens the export. Every CSV DBUI writes therefore carries such text with a
 * leading single quote, which spreadsheets take as "this is text": the rule below for csv-stringify, and the same
 * rule in the engines' own CSV writers (postgres/copy-text.ts, mysql/csv-records.ts).
 *
 * Which cells: every value of a text column (text, char, varchar, enums; the Other group too: json, xml,
 * intervals, arrays… are text a person can write) that starts with one of those characters, '-5' in a text column
 * included, as OWASP advises (telling harmless numeric text from a formula would need a spreadsheet's parser).
 * Numbers, dates, times, guids, booleans and binary keep their wire text: their engine gives them a fixed form that
 * cannot call a function, and a negative number must stay a number. SQLite alone lets any column hold any value,
 * so there a string in a column of another type is quoted too unless it is a number (or base64 in a binary
 * column), the forms that type's values take. XLSX needs none of this (jobs/xlsx-parts.ts writes strings as string
 * cells, never formulas) and JSON Lines is not opened as a sheet.
 */

/** The characters a spreadsheet starts a formula with, as OWASP lists them. */
export const FORMULA_STARTS = ['=', '+', '-', '@', '\t', '\r'];

/** Their character codes. */
const FORMULA_START_CODES = FORMULA_STARTS.map((c) => c.charCodeAt(0));

const START_BYTES = new Uint8Array(256);
for (const code of FORMULA_START_CODES) START_BYTES[code] = 1;

/** Whether a character code (or a byte of UTF-8: the engines' own CSV writers look at bytes) is one of them. */
export const startsFormulaByte = (byte: number | undefined): boolean =>
  byte !== undefined && START_BYTES[byte] === 1;

/** What a spreadsheet would read as a formula. */
export const startsLikeFormula = (text: string): boolean => startsFormulaByte(text.charCodeAt(0));

/** The text as it goes into a CSV cell: with a leading quote when it starts like a formula. */
export const formulaSafeText = (text: string): string => (startsLikeFormula(text) ? `'${text}` : text);

/** Whether a column's values are text a person writes (the columns whose formula-like cells are quoted). */
export const holdsText = (column: Pick<Column, 'typeGroup'>): boolean =>
  column.typeGroup === 'Text' || column.typeGroup === 'Other';

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
/** Base64 as the wire writes binary: padded, so its length is a multiple of 4. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** How a cell of this column goes into a CSV file: unchanged, or with formula-like text quoted (see above). */
export function formulaSafeCell(kind: EngineKind, column: Column): (value: CellValue) => CellValue {
  if (holdsText(column)) return (value) => (typeof value === 'string' ? formulaSafeText(value) : value);
  if (!engineCapabilities(kind).anyValueInAnyColumn) return (value) => value;
  const typed = column.typeGroup === 'Binary' || column.typeGroup === 'image' ? BASE64 : NUMBER;
  return (value) =>
    typeof value === 'string' && startsLikeFormula(value) && !typed.test(value) ? `'${value}` : value;
}
