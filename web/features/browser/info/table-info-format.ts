import type { Column } from '#common/contract/sql.ts';

/** What the modal shows where the engine cannot tell a figure (the contract's null). */
export const UNKNOWN = 'unknown';

const wholeNumbers = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const percents = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** A count with thousands separators (1,234,567). */
export function formatCount(value: number): string {
  return wholeNumbers.format(value);
}

/** The table's row count: "about 1,234" when it is the engine's estimate. */
export function formatRowCount(rows: number, isEstimate: boolean): string {
  return isEstimate ? `about ${formatCount(rows)}` : formatCount(rows);
}

/** A percentage as text, at most one decimal (12.3%). */
export function formatPercent(value: number): string {
  return `${percents.format(value)}%`;
}

/** A figure the engine may not know: the count, else "unknown". */
export function countOrUnknown(value: number | null): string {
  return value === null ? UNKNOWN : formatCount(value);
}

/** The column's type as a person writes it: varchar(120), varchar(max), decimal(10,2), int. */
export function columnTypeText(column: Column): string {
  const { type, typeGroup, maxLength, precision, scale } = column;
  if (typeGroup === 'Text' || typeGroup === 'Binary') {
    if (maxLength > 0) return `${type}(${maxLength})`;
    if (maxLength === -1 && /var|n?char/.test(type)) return `${type}(max)`;
    return type;
  }
  if (typeGroup === 'Number' && precision > 0 && (scale > 0 || /decimal|numeric/.test(type))) {
    return `${type}(${precision},${scale})`;
  }
  return type;
}

/** The column's notable properties, in the order a reader looks for them. */
export function columnMarks(column: Column): string[] {
  const marks: string[] = [];
  if (column.isPrimaryKey) marks.push('primary key');
  if (column.isIdentity) marks.push('identity');
  if (column.isForeignKey) marks.push('foreign key');
  if (column.isForeignKeySource) marks.push('referenced');
  if (column.isComputed) marks.push('computed');
  if (column.isHidden) marks.push('hidden');
  if (column.isNullable) marks.push('nullable');
  return marks;
}

/** The fragmentation bar's colour: green under 10%, yellow up to 30%, red above (the usual rebuild advice). */
export function fragmentationColor(percent: number): string {
  if (percent < 10) return 'teal';
  if (percent <= 30) return 'yellow';
  return 'red';
}
