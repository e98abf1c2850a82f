import {
  describeCondition,
  isCondition,
  keepsEveryRow,
  type ConditionPlan,
  type Filter as FilterDocument,
  type FilterCondition,
  type FilterOp,
  type PlacedCondition,
} from '#common/contract/filter.ts';
import type { Column, Index, Table } from '#common/contract/sql.ts';

/*
 * Which conditions of a filter an index serves, and whether the whole filter scans (docs/decisions/0061-filters.md).
 * The rules are DBUI's, the same on every engine, decided from the catalog (which columns lead an index) and the
 * operator; the plan call adds the engine's own row estimate (EXPLAIN). A filter that scans runs under the scan
 * budget (row-pages.ts), so a label that says "index" where the engine would scan could only let a statement run
 * to the statement timeout, never hurt more; the rules err toward "scan" where an engine might do either.
 *
 * - A condition on a column that leads no index scans.
 * - On an indexed column: eq, in, lt, le, gt, ge, between, startsWith (a range: decision 0004), isNull and
 *   isNotNull are served by the index; ne, contains and endsWith never are (all values but one; a pattern that
 *   starts with a wildcard).
 * - Under a `not`, a condition is read as its complement: not eq is ne (scans), not ne is eq, not lt is ge (and the
 *   nulls, which an index holds too), not between and not in are two open ranges or all values but a few (scan),
 *   not isNull is isNotNull. Two nots cancel.
 * - The whole filter scans when nothing narrows it through an index: an AND scans only if every part scans, an OR
 *   scans if any branch scans (that branch's rows must be looked for everywhere); a NOT turns its AND into an OR of
 *   the complements and its OR into an AND (De Morgan). A filter without conditions does not scan (it is no filter:
 *   the page reads by its order and LIMIT).
 */

/** How the filter is read: each condition, and whether the whole filter examines every row. */
export interface FilterAccess {
  conditions: ConditionPlan[];
  scans: boolean;
}

/** Each operator read as its complement under a `not`. */
const complementOf: Record<FilterOp, FilterOp | 'outside' | 'notIn' | 'notMatching'> = {
  eq: 'ne',
  ne: 'eq',
  lt: 'ge',
  le: 'gt',
  gt: 'le',
  ge: 'lt',
  between: 'outside',
  in: 'notIn',
  startsWith: 'notMatching',
  contains: 'notMatching',
  endsWith: 'notMatching',
  isNull: 'isNotNull',
  isNotNull: 'isNull',
};

const indexed: readonly string[] = [
  'eq',
  'in',
  'lt',
  'le',
  'gt',
  'ge',
  'between',
  'startsWith',
  'isNull',
  'isNotNull',
];

/** The index that serves a column (it leads the index), the primary key first; null when none does. */
export function indexOf(table: Table, column: Column): Index | { name: string } | null {
  const leading = table.indexes.filter((index) => index.columns[0] === column.name);
  const best =
    leading.find((index) => index.isPrimaryKey) ?? leading.find((index) => index.isUnique) ?? leading[0];
  if (best) return best;
  // The first primary-key column is indexed even where the catalog lists no index for the key (SQLite's rowid).
  if (table.primaryKey[0] === column.name) return { name: 'PRIMARY KEY' };
  return column.isIndexed ? { name: `the index on ${column.name}` } : null;
}

/** How one condition is read, `negated` when an odd number of nots is above it. */
function conditionAccess(table: Table, placed: PlacedCondition, negated: boolean): ConditionPlan {
  const { condition, path } = placed;
  const base = { path, column: condition.column, op: condition.op };
  const column = table.columns.find((c) => c.name === condition.column);
  const index = column ? indexOf(table, column) : null;
  const read = negated ? complementOf[condition.op] : condition.op;
  const under = negated ? `under not, ${condition.op} keeps ${complementWords(condition)}, which` : null;
  if (!column || !index) {
    return {
      ...base,
      access: 'scan',
      index: null,
      reason: `${condition.column} has no index, so every row is examined.`,
    };
  }
  if (indexed.includes(read)) {
    return {
      ...base,
      access: 'index',
      index: index.name,
      reason: under
        ? `${capital(under)} the index ${index.name} serves.`
        : `The index ${index.name} serves ${condition.op}.`,
    };
  }
  const why =
    read === 'contains' || read === 'endsWith'
      ? `${read} cannot use an index (the text may sit anywhere in the value).`
      : under
        ? `${capital(under)} no index narrows.`
        : `${read} keeps every value but one, which no index narrows.`;
  return { ...base, access: 'scan', index: null, reason: why };
}

function complementWords(condition: FilterCondition): string {
  switch (condition.op) {
    case 'eq':
      return 'every other value';
    case 'ne':
      return 'only that value';
    case 'lt':
      return 'the values from it up (and nulls)';
    case 'le':
      return 'the values above it (and nulls)';
    case 'gt':
      return 'the values up to it (and nulls)';
    case 'ge':
      return 'the values below it (and nulls)';
    case 'between':
      return 'the values outside the range';
    case 'in':
      return 'every value not listed';
    case 'isNull':
      return 'the rows with a value';
    case 'isNotNull':
      return 'the rows without one';
    default:
      return 'the values that do not match';
  }
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Each condition's access and whether the whole filter scans (the rules above). */
export function filterAccess(table: Table, filter: FilterDocument): FilterAccess {
  const conditions: ConditionPlan[] = [];
  const scans = walk(table, filter, 'where', false, conditions);
  return { conditions, scans: !keepsEveryRow(filter) && scans };
}

/** Whether this part scans; its conditions are added to `conditions` in document order. */
function walk(
  table: Table,
  filter: FilterDocument,
  path: string,
  negated: boolean,
  conditions: ConditionPlan[],
): boolean {
  if (isCondition(filter)) {
    const plan = conditionAccess(table, { condition: filter, path }, negated);
    conditions.push(plan);
    return plan.access === 'scan';
  }
  if ('not' in filter) return walk(table, filter.not, `${path}.not`, !negated, conditions);
  const isAnd = 'and' in filter;
  const children = isAnd ? filter.and : filter.or;
  const key = isAnd ? 'and' : 'or';
  const parts = children.map((child, i) => walk(table, child, `${path}.${key}[${i}]`, negated, conditions));
  // An AND (an OR under not) scans when every part does; an OR (an AND under not) when any part does.
  const allMustScan = isAnd !== negated;
  if (parts.length === 0) return false;
  return allMustScan ? parts.every(Boolean) : parts.some(Boolean);
}

/**
 * What would make a scanning filter fast, in a sentence: an index on the columns that have none, and a condition on
 * an indexed column that narrows the rows first. Null when it does not scan.
 */
export function scanAdvice(table: Table, access: FilterAccess): string | null {
  if (!access.scans) return null;
  const scanning = access.conditions.filter((c) => c.access === 'scan');
  const unindexed = [
    ...new Set(
      scanning
        .filter((c) => {
          const column = table.columns.find((col) => col.name === c.column);
          return !column || !indexOf(table, column);
        })
        .map((c) => c.column),
    ),
  ];
  const indexedColumns = table.columns.filter((c) => indexOf(table, c)).map((c) => c.name);
  const parts: string[] = [];
  if (unindexed.length)
    parts.push(
      `An index on ${listed(unindexed, 'or')} would let the database find the rows without reading them all`,
    );
  if (indexedColumns.length)
    parts.push(
      `${parts.length ? 'or add' : 'Add'} a condition on an indexed column (${listed(indexedColumns.slice(0, 5), 'or')}${indexedColumns.length > 5 ? ', …' : ''}) that narrows the rows first`,
    );
  else if (!unindexed.length) parts.push('This table has no index that could narrow the rows');
  return `${parts.join(', ')}.`;
}

/** The scanning conditions, as a message names them: `where.and[1] (Composer contains): Composer has no index…`. */
export function scanningConditions(access: FilterAccess): string {
  return access.conditions
    .filter((c) => c.access === 'scan')
    .map(
      (c) =>
        `${describeCondition({ path: c.path, condition: { column: c.column, op: c.op } as FilterCondition })}: ${c.reason}`,
    )
    .join(' ');
}

function listed(names: string[], word: 'or' | 'and'): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} ${word} ${names[names.length - 1]}`;
}
