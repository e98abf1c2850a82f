import type { TableRights } from '#common/contract/sql.ts';
import type { Filter } from '#common/contract/filter.ts';
import { NO_ROWS } from '#common/contract/row-rules.ts';

/*
 * How a user's roles combine on one table (issue 40, docs/decisions/0072-row-and-column-rights.md). Only the roles
 * that let the user read the table (one of their links allows its path) count: a role's permission on a table it does
 * not open grants nothing there, as today.
 * - Rows: the union of what the reading roles show. A reading role without a rule on the table shows every row, so
 *   the union is every row; otherwise it is the OR of their rules (each already resolved for the user).
 * - A write (insert, update, delete) reaches only the rows of the roles that grant that right: the OR of their rules,
 *   every row if one of them has none. Seeing a row through one role never lends it another role's right to change it.
 * - Columns: a column is hidden only when every reading role hides it (seen if one role shows it). It is writable for
 *   an action when a reading role with that right neither hides it nor makes it read-only.
 */

/** One role's grant on the table, its rule resolved for the user (null: every row). */
export interface RoleGrant {
  rights: TableRights;
  rowRule: Filter | null;
  hiddenColumns: readonly string[];
  readOnlyColumns: readonly string[];
}

export type WriteAction = 'insert' | 'update' | 'delete';

/** What the user's roles together allow on the table. */
export interface TableGrant {
  rights: TableRights;
  /** The rows the user may read: null for every row. */
  rowRule: Filter | null;
  /** The rows each write may reach: null for every row (an action without its right has NO_ROWS). */
  writeRule: Record<WriteAction, Filter | null>;
  /** Columns hidden from the user: absent from every answer, refused in every body as if they did not exist. */
  hiddenColumns: ReadonlySet<string>;
  /** Columns the user may see but not write, by action (insert and update). */
  readOnlyColumns: Record<'insert' | 'update', ReadonlySet<string>>;
}

/** Everything, for administrators and for tables no rule narrows. */
export const WHOLE_TABLE: TableGrant = {
  rights: { canInsert: true, canUpdate: true, canDelete: true },
  rowRule: null,
  writeRule: { insert: null, update: null, delete: null },
  hiddenColumns: new Set(),
  readOnlyColumns: { insert: new Set(), update: new Set() },
};

const RIGHT_OF: Record<WriteAction, keyof TableRights> = {
  insert: 'canInsert',
  update: 'canUpdate',
  delete: 'canDelete',
};

/** The union of rules: null (every row) when one is null; the single rule; their OR; NO_ROWS for none. */
function unionOf(rules: (Filter | null)[]): Filter | null {
  if (rules.length === 0) return NO_ROWS;
  if (rules.some((rule) => rule === null)) return null;
  const distinct = [...new Map(rules.map((rule) => [JSON.stringify(rule), rule as Filter])).values()];
  const [only] = distinct;
  return distinct.length === 1 && only ? only : { or: distinct };
}

/** A column every grant in the list names (the intersection of their lists); nothing for an empty list. */
function inEvery(lists: (readonly string[])[]): Set<string> {
  const [first, ...rest] = lists;
  if (!first) return new Set();
  return new Set(first.filter((name) => rest.every((list) => list.includes(name))));
}

/** Combines the grants of the roles that let the user read the table (at least one). */
export function combineGrants(grants: readonly RoleGrant[]): TableGrant {
  const rightsOf = (action: WriteAction) => grants.filter((g) => g.rights[RIGHT_OF[action]]);
  const writableLists = (action: 'insert' | 'update') =>
    rightsOf(action).map((g) => [...g.hiddenColumns, ...g.readOnlyColumns]);
  const hiddenColumns = inEvery(grants.map((g) => g.hiddenColumns));
  const readOnly = (action: 'insert' | 'update') => {
    const granting = rightsOf(action);
    // With the right from no role, the action is refused anyway; nothing to mark.
    if (granting.length === 0) return new Set<string>();
    const notWritable = inEvery(writableLists(action));
    return new Set([...notWritable].filter((name) => !hiddenColumns.has(name)));
  };
  return {
    rights: {
      canInsert: rightsOf('insert').length > 0,
      canUpdate: rightsOf('update').length > 0,
      canDelete: rightsOf('delete').length > 0,
    },
    rowRule: unionOf(grants.map((g) => g.rowRule)),
    writeRule: {
      insert: unionOf(rightsOf('insert').map((g) => g.rowRule)),
      update: unionOf(rightsOf('update').map((g) => g.rowRule)),
      delete: unionOf(rightsOf('delete').map((g) => g.rowRule)),
    },
    hiddenColumns,
    readOnlyColumns: { insert: readOnly('insert'), update: readOnly('update') },
  };
}

/** Whether the grant narrows the table at all (no rule, nothing hidden or read-only): the fast path of every call. */
export function isWholeTable(grant: TableGrant): boolean {
  return (
    grant.rowRule === null &&
    grant.hiddenColumns.size === 0 &&
    grant.readOnlyColumns.insert.size === 0 &&
    grant.readOnlyColumns.update.size === 0 &&
    (Object.keys(RIGHT_OF) as WriteAction[]).every(
      (action) => !grant.rights[RIGHT_OF[action]] || grant.writeRule[action] === null,
    )
  );
}
