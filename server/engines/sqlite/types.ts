import type { NativeType } from '#server/engines/adapter.ts';
import { looksLikeImageColumn } from '#server/engines/image-columns.ts';
import type { TypeGroup } from '#common/contract/sql.ts';

/*
 * SQLite keeps each column's declared type as written (VARCHAR(50), DECIMAL(10,2), DATETIMEOFFSET…). We map the
 * declared name onto the spec's groups by the same keywords SQLite's affinity rules use, with the common names of
 * other engines first: a column declared UNIQUEIDENTIFIER is a guid, BIT a bit, DATETIME a date.
 */

const integerPrecision: Record<string, number> = {
  tinyint: 3,
  smallint: 5,
  mediumint: 7,
  int: 10,
  integer: 19,
  bigint: 19,
};

function groupOf(base: string): TypeGroup {
  if (base === '') return 'Other';
  if (/^(uniqueidentifier|uuid|guid)$/.test(base)) return 'guid';
  if (base === 'image') return 'image';
  if (/^(bit|bool|boolean)$/.test(base)) return 'bit';
  if (/date|timestamp/.test(base)) return 'Date';
  if (/time/.test(base)) return 'Time';
  if (/int/.test(base)) return 'Number';
  if (/char|clob|text/.test(base)) return 'Text';
  if (/blob|binary/.test(base)) return 'Binary';
  if (/real|floa|doub|dec|numeric|money/.test(base)) return 'Number';
  return 'Other';
}

/** The type facts of a declared SQLite column type. */
export function sqliteNativeType(declared: string, columnName: string): NativeType {
  const text = declared.trim().toLowerCase();
  const base = text.replace(/\(.*$/, '').trim();
  const args = [...text.matchAll(/\d+/g)].map((m) => Number(m[0]));
  let typeGroup = groupOf(base);
  if (typeGroup === 'Binary' && looksLikeImageColumn(columnName)) typeGroup = 'image';
  const sized = typeGroup === 'Text' || typeGroup === 'Binary' || typeGroup === 'image';
  let precision = 0;
  let scale = 0;
  if (/dec|numeric/.test(base)) [precision = 0, scale = 0] = args;
  else if (base === 'money') [precision, scale] = [19, 4];
  else if (base === 'smallmoney') [precision, scale] = [10, 4];
  else if (typeGroup === 'Number' && /int/.test(base)) precision = integerPrecision[base] ?? 19;
  else if (base === 'real') precision = 24;
  else if (/floa|doub/.test(base)) precision = 53;
  return {
    type: base || 'any',
    typeGroup,
    maxLength: sized ? (args[0] ?? -1) : 0,
    precision,
    scale,
  };
}
