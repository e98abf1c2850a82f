import {
  conditionsOf,
  FILTER_MAX_CONDITIONS,
  FILTER_MAX_DEPTH,
  filterCondition,
  filterDocument,
  filterProblems,
  isCondition,
  noValueOps,
  opsByTypeGroup,
  type Filter,
  type FilterCondition,
  type FilterOp,
  type FilterValue,
} from '#common/contract/filter.ts';
import type { Column } from '#common/contract/sql.ts';

/*
 * The filter as the builder edits it: a tree of groups (and / or, optionally negated) and conditions whose values are
 * the text of their inputs, each node with an id the screen keeps focus and badges by. `draftOf` reads a filter
 * document into it and `filterOf` writes it back; the problems of each condition are the contract's
 * (filterCondition, filterProblems) after this file's own for what an input leaves empty. Pure, so each rule is
 * tested on its own (filter-draft.test.ts).
 */

export type Join = 'and' | 'or';

export interface DraftCondition {
  kind: 'condition';
  id: string;
  /** '' until one is chosen. */
  column: string;
  op: FilterOp;
  /** The value of a one-value operator, as typed ('true' / 'false' for a switch). */
  value: string;
  /** between: [from, to]; in: the values. */
  values: string[];
}

export interface DraftGroup {
  kind: 'group';
  id: string;
  join: Join;
  /** Keeps the rows the group does not keep ({ not: … }). */
  not: boolean;
  items: DraftNode[];
}

export type DraftNode = DraftCondition | DraftGroup;

/** The builder's state: the root group and the next id to give. */
export interface FilterDraft {
  root: DraftGroup;
  nextId: number;
}

type ColumnInfo = Pick<Column, 'name' | 'typeGroup' | 'type'>;

/** The operator a new condition on a column starts with: equality where the type has values, else isNotNull. */
export function defaultOp(column: ColumnInfo | undefined): FilterOp {
  if (!column) return 'eq';
  const ops = opsByTypeGroup[column.typeGroup];
  return ops.includes('eq') ? 'eq' : (ops[0] ?? 'isNull');
}

/** The draft of a filter document; none (null) is an empty group. Ids are given in document order from 1, so the
 * same filter always gets the same ids (the chips above the grid name the builder's nodes by them). */
export function draftOf(filter: Filter | null): FilterDraft {
  let next = 1;
  const id = (prefix: string) => `${prefix}${next++}`;
  const text = (value: FilterValue | undefined) => (value === undefined ? '' : String(value));
  const node = (f: Filter): DraftNode => {
    if (isCondition(f)) {
      return {
        kind: 'condition',
        id: id('c'),
        column: f.column,
        op: f.op,
        value: text(f.value),
        values: (f.values ?? []).map((v) => text(v)),
      };
    }
    return group(f);
  };
  const group = (f: Filter): DraftGroup => {
    // { not: X }: the group X would be, negated (a condition alone becomes a group of one).
    if (!isCondition(f) && 'not' in f) {
      const inner = group(f.not);
      return { ...inner, not: !inner.not };
    }
    const own = id('g');
    if (isCondition(f)) return { kind: 'group', id: own, join: 'and', not: false, items: [node(f)] };
    if ('and' in f) return { kind: 'group', id: own, join: 'and', not: false, items: f.and.map(node) };
    return { kind: 'group', id: own, join: 'or', not: false, items: f.or.map(node) };
  };
  const root =
    filter === null
      ? { kind: 'group' as const, id: id('g'), join: 'and' as const, not: false, items: [] }
      : group(filter);
  return { root, nextId: next };
}

/** The value a filter carries for the text of an input: a boolean for a switch, the text itself otherwise (exact
 * numbers travel as text, as the data API's values do). */
export function wireValue(text: string, column: ColumnInfo | undefined): FilterValue {
  if (column?.typeGroup === 'bit') return text === 'true' || text === '1';
  return column?.typeGroup === 'Text' ? text : text.trim();
}

/** A condition as the filter document holds it (empty inputs left out, so the contract says what is missing). */
export function conditionOf(
  condition: DraftCondition,
  column: ColumnInfo | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = { column: condition.column, op: condition.op };
  if (noValueOps.includes(condition.op)) return out;
  if (condition.op === 'between' || condition.op === 'in') {
    out.values = condition.values.filter((v) => v.trim() !== '').map((v) => wireValue(v, column));
  } else if (condition.value.trim() !== '' || (column?.typeGroup === 'Text' && condition.value !== '')) {
    out.value = wireValue(condition.value, column);
  }
  return out;
}

/** Which input a problem belongs to. */
export type ProblemField = 'column' | 'op' | 'value';

export interface ConditionProblem {
  field: ProblemField;
  message: string;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/i;
const TIME = /^\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/** What is wrong with one value of a column's type, or null. */
function valueProblem(text: string, column: ColumnInfo): string | null {
  const value = text.trim();
  switch (column.typeGroup) {
    case 'Number':
      return NUMBER.test(value) ? null : `“${value}” is not a number.`;
    case 'Date':
      return DATE.test(value) ? null : `“${value}” is not a date (YYYY-MM-DD, with a time if wanted).`;
    case 'Time':
      return TIME.test(value) ? null : `“${value}” is not a time (HH:MM:SS).`;
    default:
      return null;
  }
}

/**
 * What stops a condition from being sent, or null: no column, an input left empty, a value that is not of the
 * column's type, then whatever the contract refuses (its own words: filterCondition, filterProblems).
 */
export function conditionProblem(
  condition: DraftCondition,
  columns: readonly ColumnInfo[],
): ConditionProblem | null {
  if (condition.column === '') return { field: 'column', message: 'Choose a column.' };
  const column = columns.find((c) => c.name === condition.column);
  const placed = conditionOf(condition, column);
  const fit = filterProblems(placed as FilterCondition, columns)[0];
  if (fit) {
    const message = fit.message.replace(/^\S+ \([^)]*\): /, '');
    return { field: column ? 'op' : 'column', message: message.charAt(0).toUpperCase() + message.slice(1) };
  }
  if (!column) return { field: 'column', message: 'Choose a column.' };
  if (!noValueOps.includes(condition.op)) {
    if (condition.op === 'between') {
      if (condition.values.length < 2 || condition.values.some((v) => v.trim() === '')) {
        return { field: 'value', message: 'Enter both ends of the range.' };
      }
    } else if (condition.op === 'in') {
      if (condition.values.every((v) => v.trim() === '')) {
        return { field: 'value', message: 'Enter at least one value.' };
      }
    } else if (!('value' in placed)) {
      return { field: 'value', message: 'Enter a value.' };
    }
    const texts = condition.op === 'between' || condition.op === 'in' ? condition.values : [condition.value];
    for (const text of texts) {
      if (text.trim() === '') continue;
      const problem = valueProblem(text, column);
      if (problem) return { field: 'value', message: problem };
    }
  }
  const shape = filterCondition.safeParse(placed);
  if (!shape.success) {
    const message = shape.error.issues[0]?.message ?? 'This condition is not complete.';
    return { field: 'value', message: message.charAt(0).toUpperCase() + message.slice(1) };
  }
  return null;
}

/** Every condition of the draft, in document order. */
export function draftConditions(node: DraftNode): DraftCondition[] {
  return node.kind === 'condition' ? [node] : node.items.flatMap(draftConditions);
}

/** A filter document written from the draft, with where each condition sits in it (its path, as conditionsOf and
 * the plan call name it). */
export interface WrittenFilter {
  /** null: no condition to send. */
  filter: Filter | null;
  /** Condition id → path (where, where.and[1], where.or[0].not …). */
  paths: Map<string, string>;
}

/**
 * The filter document of the draft. `keep` chooses the conditions written (the plan asks about the complete ones
 * while others are still being typed); a group left with none is left out. A root of one item is written as that
 * item, so the address of a one-condition filter stays short.
 */
export function filterOf(
  draft: FilterDraft,
  columns: readonly ColumnInfo[],
  keep: (condition: DraftCondition) => boolean = () => true,
): WrittenFilter {
  const ids: string[] = [];
  const write = (node: DraftNode): Filter | null => {
    if (node.kind === 'condition') {
      if (!keep(node)) return null;
      ids.push(node.id);
      return conditionOf(
        node,
        columns.find((c) => c.name === node.column),
      ) as FilterCondition;
    }
    const items = node.items.map(write).filter((f): f is Filter => f !== null);
    if (items.length === 0) return null;
    const joined: Filter =
      items.length === 1 && items[0] ? items[0] : node.join === 'and' ? { and: items } : { or: items };
    return node.not ? { not: joined } : joined;
  };
  const filter = write(draft.root);
  const paths = new Map<string, string>();
  if (filter) conditionsOf(filter).forEach((placed, i) => ids[i] && paths.set(ids[i], placed.path));
  return { filter, paths };
}

/** What stops the whole filter (its depth, its number of conditions), in the contract's words; null when nothing. */
export function documentProblem(filter: Filter | null): string | null {
  if (filter === null) return null;
  const parsed = filterDocument.safeParse(filter);
  if (parsed.success) return null;
  const message = parsed.error.issues[0]?.message ?? 'The filter is not complete.';
  return message.charAt(0).toUpperCase() + message.slice(1);
}

// ---- changes ----------------------------------------------------------------------------------------------------

export type DraftAction =
  | { type: 'addCondition'; groupId: string; column?: ColumnInfo }
  | { type: 'addGroup'; groupId: string; column?: ColumnInfo }
  | { type: 'remove'; id: string }
  | { type: 'setJoin'; groupId: string; join: Join }
  | { type: 'setNot'; groupId: string; not: boolean }
  | { type: 'setColumn'; id: string; name: string; columns: readonly ColumnInfo[] }
  | { type: 'setOp'; id: string; op: FilterOp }
  | { type: 'setValue'; id: string; value: string }
  | { type: 'setValues'; id: string; values: string[] }
  | { type: 'clear' };

const emptyCondition = (id: string, column?: ColumnInfo): DraftCondition => ({
  kind: 'condition',
  id,
  column: column?.name ?? '',
  op: defaultOp(column),
  value: '',
  values: [],
});

/** The values an operator keeps from the ones before: the first value becomes the first of a list, and back. */
function reshape(condition: DraftCondition, op: FilterOp): DraftCondition {
  const first = condition.value !== '' ? condition.value : (condition.values[0] ?? '');
  if (noValueOps.includes(op)) return { ...condition, op, value: '', values: [] };
  if (op === 'between') return { ...condition, op, value: '', values: [first, condition.values[1] ?? ''] };
  if (op === 'in')
    return {
      ...condition,
      op,
      value: '',
      values: condition.values.length ? condition.values : first ? [first] : [],
    };
  return { ...condition, op, value: first, values: [] };
}

function mapNode(
  node: DraftNode,
  id: string,
  change: (node: DraftNode) => DraftNode | null,
): DraftNode | null {
  if (node.id === id) return change(node);
  if (node.kind === 'condition') return node;
  const items = node.items.map((item) => mapNode(item, id, change)).filter((n): n is DraftNode => n !== null);
  // A nested group whose last item went goes too.
  if (items.length === 0 && node.items.length > 0) return null;
  return items.length === node.items.length && items.every((item, i) => item === node.items[i])
    ? node
    : { ...node, items };
}

function update(draft: FilterDraft, id: string, change: (node: DraftNode) => DraftNode | null): FilterDraft {
  const root = mapNode(draft.root, id, change);
  if (root === draft.root) return draft;
  // The root stays, empty, when its last item goes.
  return { ...draft, root: root && root.kind === 'group' ? root : { ...draft.root, items: [] } };
}

/** The id the next added node gets (for the screen to move the focus to it). */
export const nextConditionId = (draft: FilterDraft) => `c${draft.nextId}`;

export function draftReducer(draft: FilterDraft, action: DraftAction): FilterDraft {
  switch (action.type) {
    case 'addCondition': {
      const added = emptyCondition(`c${draft.nextId}`, action.column);
      const next = update(draft, action.groupId, (node) =>
        node.kind === 'group' ? { ...node, items: [...node.items, added] } : node,
      );
      return next === draft ? draft : { ...next, nextId: draft.nextId + 1 };
    }
    case 'addGroup': {
      // The new group's first condition takes the next id (the focus goes to it), the group the one after.
      const condition = emptyCondition(`c${draft.nextId}`, action.column);
      const next = update(draft, action.groupId, (node) =>
        node.kind === 'group'
          ? {
              ...node,
              items: [
                ...node.items,
                {
                  kind: 'group',
                  id: `g${draft.nextId + 1}`,
                  join: node.join === 'and' ? 'or' : 'and',
                  not: false,
                  items: [condition],
                },
              ],
            }
          : node,
      );
      return next === draft ? draft : { ...next, nextId: draft.nextId + 2 };
    }
    case 'remove':
      return action.id === draft.root.id ? draft : update(draft, action.id, () => null);
    case 'setJoin':
      return update(draft, action.groupId, (node) =>
        node.kind === 'group' ? { ...node, join: action.join } : node,
      );
    case 'setNot':
      return update(draft, action.groupId, (node) =>
        node.kind === 'group' ? { ...node, not: action.not } : node,
      );
    case 'setColumn':
      return update(draft, action.id, (node) => {
        if (node.kind !== 'condition') return node;
        const before = action.columns.find((c) => c.name === node.column);
        const column = action.columns.find((c) => c.name === action.name);
        const ops = column ? opsByTypeGroup[column.typeGroup] : null;
        const op = ops && !ops.includes(node.op) ? defaultOp(column) : node.op;
        // Values typed for another type are no use to the new column (a date is no number).
        const keep = before !== undefined && column !== undefined && before.typeGroup === column.typeGroup;
        return reshape({ ...node, column: action.name, ...(keep ? {} : { value: '', values: [] }) }, op);
      });
    case 'setOp':
      return update(draft, action.id, (node) =>
        node.kind === 'condition' ? reshape(node, action.op) : node,
      );
    case 'setValue':
      return update(draft, action.id, (node) =>
        node.kind === 'condition' ? { ...node, value: action.value } : node,
      );
    case 'setValues':
      return update(draft, action.id, (node) =>
        node.kind === 'condition' ? { ...node, values: action.values } : node,
      );
    case 'clear':
      return { ...draft, root: { ...draft.root, not: false, items: [] } };
  }
}

/** How deep a group sits in the written filter (the root 1; a negated group adds a level of its own). */
export function groupLevels(root: DraftGroup): Map<string, number> {
  const levels = new Map<string, number>();
  const walk = (group: DraftGroup, level: number) => {
    levels.set(group.id, level);
    for (const item of group.items) if (item.kind === 'group') walk(item, level + 1 + (item.not ? 1 : 0));
  };
  walk(root, 1 + (root.not ? 1 : 0));
  return levels;
}

/** Whether another group fits inside `group` (its conditions would sit at most FILTER_MAX_DEPTH deep). */
export const groupFitsIn = (level: number) => level + 2 <= FILTER_MAX_DEPTH;

/** Whether another condition fits (at most FILTER_MAX_CONDITIONS). */
export const conditionFits = (draft: FilterDraft) =>
  draftConditions(draft.root).length < FILTER_MAX_CONDITIONS;
