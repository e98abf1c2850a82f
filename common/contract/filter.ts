import { z } from 'zod';
import { exportFormat } from './exports.ts';
import { orderBy, pageQuery, type Column } from './sql.ts';

/*
 * The filter document (issue 35): one JSON shape for a WHERE, shared by the filter calls, saved views, relations,
 * bulk changes and row rules. A condition names a column, an operator and its value(s); conditions nest in and / or /
 * not. Values travel as the data API's values do (exact integers and decimals as strings, dates as ISO text with their
 * offset, booleans as true/false). The shape is checked here, by zod, on both ends; whether each condition fits its
 * column (the column exists, the operator suits its type) needs the catalog, and `filterProblems` checks it against the
 * table's columns, also on both ends. The server then turns it into SQL with every value a parameter and every column
 * name taken from the catalog.
 */

/** At most this many levels of and / or / not (a condition alone is level 1). */
export const FILTER_MAX_DEPTH = 5;
/** At most this many conditions in one filter. */
export const FILTER_MAX_CONDITIONS = 50;
/** At most this many groups (and, or, not) in one filter: empty groups hold no condition, and thousands of them
 * would make a statement deeper than an engine parses (SQLite stops at 1,000 levels of expression). */
export const FILTER_MAX_GROUPS = 50;
/** At most this many values in one filter, every condition's together: each is a bound parameter of one statement,
 * and the engines take at most 2,100 (SQL Server) to 65,535 (PostgreSQL, MySQL) of them (SQLite 32,766). */
export const FILTER_MAX_VALUES = 2000;
/** At most this many values in one `in`. */
export const FILTER_IN_MAX_VALUES = 1000;
/** The longest value a condition takes (characters of text). */
export const FILTER_VALUE_MAX_LENGTH = 4000;

export {
  filterOps,
  noValueOps,
  opsByTypeGroup,
  rangeOps,
  singleValueOps,
  textOps,
  type FilterOp,
} from './filter-ops.ts';
import {
  filterOps,
  noValueOps,
  opsByTypeGroup,
  singleValueOps,
  textOps,
  type FilterOp,
} from './filter-ops.ts';

export const filterOp = z.enum(filterOps, {
  error: `op must be one of ${filterOps.join(', ')}.`,
});

/** A condition's value: text, a number or a boolean (null is asked with isNull / isNotNull). */
export const filterValue = z.union(
  [
    z.string().max(FILTER_VALUE_MAX_LENGTH, `a value is at most ${FILTER_VALUE_MAX_LENGTH} characters.`),
    z.number(),
    z.boolean(),
  ],
  { error: 'a value must be text, a number, true or false (ask for null with isNull).' },
);
export type FilterValue = z.infer<typeof filterValue>;

export const filterCondition = z
  .strictObject({
    column: z.string({ error: 'column must name a column.' }).min(1, 'column must name a column.'),
    op: filterOp,
    value: filterValue.optional(),
    values: z.array(filterValue).optional(),
  })
  .superRefine((condition, ctx) => {
    const problem = arityProblem(condition);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
export type FilterCondition = z.infer<typeof filterCondition>;

/** A filter: a condition, or an and / or of filters, or the not of one. `{ "and": [] }` is the filter that keeps
 * every row. */
export type Filter = FilterCondition | { and: Filter[] } | { or: Filter[] } | { not: Filter };

const filterNode: z.ZodType<Filter> = z.lazy(() =>
  z.union(
    [
      z.strictObject({ and: z.array(filterNode, { error: 'and must be a list of filters.' }) }),
      z.strictObject({
        or: z
          .array(filterNode, { error: 'or must be a list of filters.' })
          .min(1, 'an or needs at least one filter.'),
      }),
      z.strictObject({ not: filterNode }),
      filterCondition,
    ],
    { error: unionProblem },
  ),
);
// A named schema: the OpenAPI document describes the recursion once, as the component Filter(Input), and refers to it
// (the app's swagger takes the registry's components).
filterNode.register(z.globalRegistry, {
  id: 'Filter',
  description: 'A condition { column, op, value | values }, or { and: [...] }, { or: [...] } or { not: ... }',
});

const filterShapes = ['and', 'or', 'not', 'column'] as const;
const FILTER_SHAPE =
  'a filter is a condition { column, op, value }, { "and": [filters] }, { "or": [filters] } or { "not": filter }.';

/** A union's message: the problem of the shape the input meant (told by its key: and, or, not or column), so a
 * condition with a bad operator says so rather than that it is no filter. */
function unionProblem(issue: { code?: string; input?: unknown; errors?: unknown }): string {
  const input = issue.input;
  if (issue.code !== 'invalid_union' || typeof input !== 'object' || input === null || Array.isArray(input)) {
    return FILTER_SHAPE;
  }
  const meant = filterShapes.findIndex((key) => key in input);
  const errors = issue.errors as { code?: string; message: string; path: PropertyKey[] }[][] | undefined;
  const first = meant >= 0 ? errors?.[meant]?.[0] : undefined;
  if (!first) return FILTER_SHAPE;
  if (!first.path.length) return first.message;
  const path = pathText(first.path);
  // A nested filter's problem already starts with its own path (`op: …`, `or[1].value: …`): one path of both.
  const nested = first.code === 'invalid_union' ? problemWithin(path, first.message) : null;
  return nested ?? `${path}: ${first.message}`;
}

/** A problem that starts with a path within the document: `and[0].op: …`. */
const NESTED_PATH = /^([A-Za-z]\w*(?:\[\d+\]|\.[A-Za-z]\w*)*): (.*)$/s;

/** A nested filter's problem (`and[0].op: …`) placed under the path that holds it, as one path
 * (`where.and[0].op: …`); null when the problem does not start with a path. The schema's messages and the server's
 * validation answers both join paths this way. */
export function problemWithin(path: string, message: string): string | null {
  const nested = NESTED_PATH.exec(message);
  if (!nested?.[1] || nested[2] === undefined) return null;
  return `${path}${nested[1].startsWith('[') ? '' : '.'}${nested[1]}: ${nested[2]}`;
}

/** A path within the document as its messages write it: `and[1].or[0].value`. */
function pathText(path: readonly PropertyKey[]): string {
  return path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i ? '.' : ''}${String(part)}`))
    .join('');
}

/** The filter document as a request carries it: the shape, at most FILTER_MAX_DEPTH deep, FILTER_MAX_CONDITIONS
 * conditions and FILTER_MAX_GROUPS groups. */
export const filterDocument = filterNode
  .superRefine((filter, ctx) => {
    const depth = depthOf(filter);
    if (depth > FILTER_MAX_DEPTH) {
      ctx.addIssue({
        code: 'custom',
        message: `the filter nests ${depth} levels; at most ${FILTER_MAX_DEPTH} are allowed.`,
      });
    }
    const count = conditionsOf(filter).length;
    if (count > FILTER_MAX_CONDITIONS) {
      ctx.addIssue({
        code: 'custom',
        message: `the filter has ${count} conditions; at most ${FILTER_MAX_CONDITIONS} are allowed.`,
      });
    }
    const values = valuesOf(filter);
    if (values > FILTER_MAX_VALUES) {
      ctx.addIssue({
        code: 'custom',
        message: `the filter has ${values} values; at most ${FILTER_MAX_VALUES} are allowed in one filter.`,
      });
    }
    const groups = groupsOf(filter);
    if (groups > FILTER_MAX_GROUPS) {
      ctx.addIssue({
        code: 'custom',
        message: `the filter has ${groups} groups (and, or, not); at most ${FILTER_MAX_GROUPS} are allowed.`,
      });
    }
  })
  .describe(
    'A filter document: { column, op, value | values }, { and: [...] }, { or: [...] } or { not: ... }; ' +
      `op one of ${filterOps.join(', ')}; at most ${FILTER_MAX_DEPTH} levels, ${FILTER_MAX_CONDITIONS} conditions ` +
      `and ${FILTER_MAX_GROUPS} groups, ${FILTER_MAX_VALUES} values in all`,
  );

/** The filter that keeps every row. */
export const everyRow: Filter = { and: [] };

export function isCondition(filter: Filter): filter is FilterCondition {
  return 'column' in filter;
}

/** A condition and where it sits in the document, as `where.and[1].or[0]`, for messages that name it. */
export interface PlacedCondition {
  condition: FilterCondition;
  path: string;
}

/** Every condition of the filter, in document order, with its path from `root`. */
export function conditionsOf(filter: Filter, root = 'where'): PlacedCondition[] {
  if (isCondition(filter)) return [{ condition: filter, path: root }];
  if ('and' in filter) return filter.and.flatMap((child, i) => conditionsOf(child, `${root}.and[${i}]`));
  if ('or' in filter) return filter.or.flatMap((child, i) => conditionsOf(child, `${root}.or[${i}]`));
  return conditionsOf(filter.not, `${root}.not`);
}

/** How many values the filter's conditions hold together (a value, or each of values). */
export function valuesOf(filter: Filter): number {
  return conditionsOf(filter).reduce(
    (sum, { condition }) => sum + (condition.values?.length ?? 0) + (condition.value === undefined ? 0 : 1),
    0,
  );
}

/** How many and / or / not groups the filter holds, itself included. */
export function groupsOf(filter: Filter): number {
  if (isCondition(filter)) return 0;
  const children = 'and' in filter ? filter.and : 'or' in filter ? filter.or : [filter.not];
  return children.reduce((sum, child) => sum + groupsOf(child), 1);
}

/** Levels of nesting: a condition is 1, an and of conditions 2. An empty and / or counts as one level. */
export function depthOf(filter: Filter): number {
  if (isCondition(filter)) return 1;
  const children = 'and' in filter ? filter.and : 'or' in filter ? filter.or : [filter.not];
  return 1 + Math.max(0, ...children.map(depthOf));
}

/** True when the filter keeps every row (no condition anywhere: `{ and: [] }`, or ands of those). */
export function keepsEveryRow(filter: Filter): boolean {
  if (isCondition(filter)) return false;
  if ('and' in filter) return filter.and.every(keepsEveryRow);
  return false;
}

/** How a condition reads in a message: `Total gt`, after its path. */
export function describeCondition({ condition, path }: PlacedCondition): string {
  return `${path} (${condition.column} ${condition.op})`;
}

/** A problem of one condition against the table's columns: where, and what to fix. */
export interface FilterProblem {
  path: string;
  message: string;
}

/**
 * What is wrong with the filter for these columns, one problem per condition at most: an unknown column, an operator
 * its type does not take. (Whether a value parses as the column's type is the server's check: it knows the engine's
 * types.) Empty when the filter fits.
 */
export function filterProblems(
  filter: Filter,
  columns: readonly Pick<Column, 'name' | 'typeGroup' | 'type'>[],
): FilterProblem[] {
  const problems: FilterProblem[] = [];
  for (const placed of conditionsOf(filter)) {
    const { condition, path } = placed;
    const column = columns.find((c) => c.name === condition.column);
    if (!column) {
      problems.push({
        path,
        message: `${describeCondition(placed)}: ${condition.column} is not a column of this table.`,
      });
      continue;
    }
    const allowed = opsByTypeGroup[column.typeGroup];
    if (!allowed.includes(condition.op)) {
      const why = textOps.includes(condition.op)
        ? `${condition.op} works only on text columns`
        : `${condition.op} does not suit ${column.type} values`;
      problems.push({
        path,
        message: `${describeCondition(placed)}: ${why}; ${column.name} (${column.type}) takes ${allowed.join(', ')}.`,
      });
    }
  }
  return problems;
}

function arityProblem(condition: {
  op: FilterOp;
  value?: unknown;
  values?: unknown[] | undefined;
}): string | null {
  const { op, value, values } = condition;
  if (noValueOps.includes(op)) {
    return value !== undefined || values !== undefined ? `${op} takes no value.` : null;
  }
  if (singleValueOps.includes(op)) {
    if (values !== undefined) return `${op} takes one value, not values.`;
    return value === undefined ? `${op} needs a value.` : null;
  }
  if (value !== undefined) return `${op} takes values (a list), not value.`;
  if (op === 'between') {
    return values?.length === 2 ? null : 'between needs values of two: [from, to].';
  }
  if (!values || values.length === 0) return 'in needs at least one value in values.';
  if (values.length > FILTER_IN_MAX_VALUES) {
    return `in takes at most ${FILTER_IN_MAX_VALUES} values; it was given ${values.length}.`;
  }
  return null;
}

/*
 * The filter calls (issue 35), beside the spec's calls, whose column → term map stays as it is. Bodies travel encoded
 * as the other data calls' do (ENCODED_BODY in sql.ts).
 */

/** The filter calls' rules, for their OpenAPI descriptions. */
export const FILTER_CALL_RULES =
  'The body is { where, … }: where a filter document, a condition { column, op, value | values } or { and: [...] }, ' +
  `{ or: [...] }, { not: ... }, at most ${FILTER_MAX_DEPTH} levels, ${FILTER_MAX_CONDITIONS} conditions and ` +
  `${FILTER_MAX_GROUPS} groups, ${FILTER_MAX_VALUES} values in all, in ` +
  `at most ${FILTER_IN_MAX_VALUES} values. Values travel as the data API's values (exact numbers as text, dates ` +
  'with their offset); a null makes every condition but isNull false. Sent as the other data bodies are: ' +
  'base64(encodeURIComponent(JSON)) as text/plain, or JSON. An unknown column, an operator its type does not take ' +
  'or a value that does not parse is a 400 naming the condition (where.and[1].or[0]) and what to fix. A filter no ' +
  'index serves (see …/query/plan) runs under the scan budget and is stopped there with a 504 that says which ' +
  'condition scans and what would make it fast.';

/** `?page=&pageSize=&orderBy=&cursor=` of POST …/query: a page as the page calls read it (the cursor holds the sort
 * key; the filter is only a WHERE). */
export const filterQueryParams = pageQuery.extend({
  page: z.coerce
    .number({ error: 'page must be a whole number from 1.' })
    .int('page must be a whole number from 1.')
    .min(1, 'page must be a whole number from 1.')
    .default(1),
});

/** The spec's search terms (column → term, exactly what the search call takes), beside a filter: the screen keeps
 * the spec's search form next to the filter builder, and both narrow the same rows. */
export const searchTerms = z
  .record(
    z.string(),
    z.union([z.string(), z.number(), z.boolean(), z.null()], {
      error: 'a search term must be text, a number, true or false, or null.',
    }),
    { error: 'search must be an object of column name to search term, like {"Name":"Ab"}.' },
  )
  .optional()
  .describe(
    "The spec's search terms, column name → term, as the search call's body (indexed columns, prefix or equality); " +
      'the rows must match them and where',
  );

/** A body's keys, strictly (shared by the filter and view calls): a key the call does not take is a 400 naming it (a search map sent as the body by
 * mistake would otherwise keep every row). */
export function bodyOf<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  const keys = Object.keys(shape).join(', ');
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `the body takes ${keys}; ${issue.keys.join(', ')} ${issue.keys.length === 1 ? 'is' : 'are'} not one of them.`
        : undefined,
  });
}

/** POST …/query: the rows `where` keeps (every row without it), and the search terms when given. Answer: pageResult. */
export const filterQueryBody = bodyOf({ where: filterDocument.default(everyRow), search: searchTerms });
export type FilterQueryBody = z.infer<typeof filterQueryBody>;

/** POST …/query/plan: how the engine would read the rows `where` keeps, in this order. */
export const filterPlanBody = bodyOf({ where: filterDocument.default(everyRow), orderBy });
export type FilterPlanBody = z.infer<typeof filterPlanBody>;

/** How one condition is read: through an index (`index`) or by looking at every row (`scan`). */
export const conditionPlan = z.object({
  path: z.string().describe('Where the condition sits in the document, e.g. where.and[1].or[0]'),
  column: z.string(),
  op: filterOp,
  access: z
    .enum(['index', 'scan'])
    .describe('index: an index serves the condition; scan: every row is examined'),
  index: z.string().nullable().describe('The index that serves it, when one does'),
  reason: z.string().describe('Why, in a sentence a person reads (e.g. "contains cannot use an index")'),
});
export type ConditionPlan = z.infer<typeof conditionPlan>;

export const filterPlan = z.object({
  conditions: z.array(conditionPlan),
  scans: z
    .boolean()
    .describe('True when the whole filter will examine every row (no indexed condition narrows it first)'),
  estimatedRows: z
    .number()
    .nullable()
    .describe("The engine's estimate of the rows kept; null when it gives none"),
  scanBudgetMs: z.number().int().describe('How long a scanning filter may run before it is stopped'),
  advice: z
    .string()
    .nullable()
    .describe(
      'When it scans: what would make it fast (an index on a column, or a narrower indexed condition)',
    ),
});
export type FilterPlan = z.infer<typeof filterPlan>;

/** POST …/query/export?orderBy=: an export of exactly the rows `where` (and the search terms, when given) keeps.
 * Answer: exportStarted. */
export const filterExportBody = bodyOf({
  where: filterDocument.default(everyRow),
  search: searchTerms,
  format: exportFormat.default('csv'),
  bom: z
    .boolean()
    .default(false)
    .describe('CSV only: start the file with the UTF-8 byte-order mark (for Excel)'),
});
export type FilterExportBody = z.infer<typeof filterExportBody>;
