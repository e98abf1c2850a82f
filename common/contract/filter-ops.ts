import type { TypeGroup } from './sql.ts';

/*
 * The filter document's operators (issue 35, common/contract/filter.ts) and which column types take which, without
 * zod: the browser's first visit needs these (a row's key is the columns a filter can name with `eq`) and not the
 * document's schemas, which load with the filter's own code.
 */

export const filterOps = [
  'eq',
  'ne',
  'lt',
  'le',
  'gt',
  'ge',
  'between',
  'in',
  'startsWith',
  'contains',
  'endsWith',
  'isNull',
  'isNotNull',
] as const;
export type FilterOp = (typeof filterOps)[number];
/** The operators that take one `value`, two `values` (between), a list of `values` (in), or none. */
export const singleValueOps: readonly FilterOp[] = [
  'eq',
  'ne',
  'lt',
  'le',
  'gt',
  'ge',
  'startsWith',
  'contains',
  'endsWith',
];
export const noValueOps: readonly FilterOp[] = ['isNull', 'isNotNull'];
/** The operators only text columns take. */
export const textOps: readonly FilterOp[] = ['startsWith', 'contains', 'endsWith'];
/** The operators that compare order (and so need a type with an order people expect). */
export const rangeOps: readonly FilterOp[] = ['lt', 'le', 'gt', 'ge', 'between'];

/** Which operators each type group takes. Binary, image and Other values can only be asked whether they are null. */
export const opsByTypeGroup: Record<TypeGroup, readonly FilterOp[]> = {
  Text: filterOps,
  Number: ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'between', 'in', 'isNull', 'isNotNull'],
  Date: ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'between', 'in', 'isNull', 'isNotNull'],
  Time: ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'between', 'in', 'isNull', 'isNotNull'],
  guid: ['eq', 'ne', 'in', 'isNull', 'isNotNull'],
  bit: ['eq', 'ne', 'isNull', 'isNotNull'],
  Binary: noValueOps,
  image: noValueOps,
  Other: noValueOps,
};
