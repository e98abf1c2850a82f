import type { FilterOp } from '#common/contract/filter.ts';
import type { Column } from '#common/contract/sql.ts';
import type { DraftCondition, DraftNode } from './filter-draft.ts';

/*
 * How a filter reads on the screen: the operators' names in the builder's lists, and each condition and group as one
 * line for the chips above the grid ("Total ≥ 10", "(Country = “USA” or Country is null)").
 */

/** The operator as the builder's list names it. */
export const opLabels: Record<FilterOp, string> = {
  eq: 'equals',
  ne: 'does not equal',
  lt: 'less than',
  le: 'at most',
  gt: 'greater than',
  ge: 'at least',
  between: 'between',
  in: 'is one of',
  startsWith: 'starts with',
  contains: 'contains',
  endsWith: 'ends with',
  isNull: 'is null',
  isNotNull: 'is not null',
};

/** The operator as a chip writes it. */
const opSigns: Record<FilterOp, string> = {
  eq: '=',
  ne: '≠',
  lt: '<',
  le: '≤',
  gt: '>',
  ge: '≥',
  between: 'between',
  in: 'in',
  startsWith: 'starts with',
  contains: 'contains',
  endsWith: 'ends with',
  isNull: 'is null',
  isNotNull: 'is not null',
};

/** The most values of an `in` a chip lists before it says how many more there are. */
const IN_SHOWN = 3;

type ColumnInfo = Pick<Column, 'name' | 'typeGroup'>;

/** A value as a chip writes it: text in quotes (so “ a” shows its space), numbers, dates and switches as they are. */
function valueText(text: string, column: ColumnInfo | undefined): string {
  return column?.typeGroup === 'Text' || column?.typeGroup === 'guid' ? `“${text}”` : text;
}

/** One condition in a line: "Total ≥ 10", "Name contains “ab”", "Total between 1 and 5", "Id in (1, 2, +3 more)". */
export function conditionText(condition: DraftCondition, columns: readonly ColumnInfo[]): string {
  const column = columns.find((c) => c.name === condition.column);
  const head = `${condition.column} ${opSigns[condition.op]}`;
  switch (condition.op) {
    case 'isNull':
    case 'isNotNull':
      return head;
    case 'between':
      return `${head} ${valueText(condition.values[0] ?? '', column)} and ${valueText(condition.values[1] ?? '', column)}`;
    case 'in': {
      const shown = condition.values.slice(0, IN_SHOWN).map((v) => valueText(v, column));
      const more = condition.values.length - shown.length;
      return `${head} (${shown.join(', ')}${more > 0 ? `, +${more} more` : ''})`;
    }
    default:
      return `${head} ${valueText(condition.value, column)}`;
  }
}

/** A node in a line: a condition, or a group in brackets joined by its and / or, "not" before a negated one. */
export function nodeText(node: DraftNode, columns: readonly ColumnInfo[]): string {
  if (node.kind === 'condition') return conditionText(node, columns);
  const inner = node.items.map((item) => nodeText(item, columns)).join(` ${node.join} `);
  const grouped = node.items.length === 1 && !node.not ? inner : `(${inner})`;
  return node.not ? `not ${grouped}` : grouped;
}
