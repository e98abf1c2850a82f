import { describe, expect, it } from 'vitest';
import type { Filter } from '#common/contract/filter.ts';
import { NO_ROWS } from '#common/contract/row-rules.ts';
import { combineGrants, isWholeTable, type RoleGrant } from './table-grant.ts';

const brazil: Filter = { column: 'Country', op: 'eq', value: 'Brazil' };
const canada: Filter = { column: 'Country', op: 'eq', value: 'Canada' };
const grant = (over: Partial<RoleGrant> = {}): RoleGrant => ({
  rights: { canInsert: false, canUpdate: false, canDelete: false },
  rowRule: null,
  hiddenColumns: [],
  readOnlyColumns: [],
  ...over,
});
const writer = { canInsert: true, canUpdate: true, canDelete: true };

describe('how roles combine on a table', () => {
  it('is the whole table for one role with no rule and nothing hidden', () => {
    const combined = combineGrants([grant({ rights: writer })]);
    expect(combined.rowRule).toBeNull();
    expect(isWholeTable(combined)).toBe(true);
    // A reader without write rights still reads the whole table.
    expect(isWholeTable(combineGrants([grant()]))).toBe(true);
  });

  it('shows the union of the rows: the OR of the rules, every row once a role has none', () => {
    expect(combineGrants([grant({ rowRule: brazil })]).rowRule).toEqual(brazil);
    expect(combineGrants([grant({ rowRule: brazil }), grant({ rowRule: canada })]).rowRule).toEqual({
      or: [brazil, canada],
    });
    expect(combineGrants([grant({ rowRule: brazil }), grant({ rowRule: { ...brazil } })]).rowRule).toEqual(
      brazil,
    );
    expect(combineGrants([grant({ rowRule: brazil }), grant()]).rowRule).toBeNull();
  });

  it('lets a write reach only the rows of the roles that grant it', () => {
    const combined = combineGrants([
      grant({ rowRule: brazil, rights: { canInsert: false, canUpdate: true, canDelete: false } }),
      grant({ rowRule: null }),
    ]);
    expect(combined.rowRule).toBeNull();
    expect(combined.rights).toEqual({ canInsert: false, canUpdate: true, canDelete: false });
    expect(combined.writeRule.update).toEqual(brazil);
    expect(combined.writeRule.delete).toEqual(NO_ROWS);
    expect(isWholeTable(combined)).toBe(false);
  });

  it('hides a column only when every role hides it, and makes it read-only when no writing role may write it', () => {
    const combined = combineGrants([
      grant({ rights: writer, hiddenColumns: ['Email', 'Phone'], readOnlyColumns: ['Country'] }),
      grant({ hiddenColumns: ['Email'] }),
    ]);
    expect([...combined.hiddenColumns]).toEqual(['Email']);
    // Phone is shown by the second role, which cannot write: it is seen and read-only.
    expect([...combined.readOnlyColumns.update].sort()).toEqual(['Country', 'Phone']);
    expect([...combined.readOnlyColumns.insert].sort()).toEqual(['Country', 'Phone']);

    const twoWriters = combineGrants([
      grant({ rights: writer, readOnlyColumns: ['Country'] }),
      grant({ rights: writer, readOnlyColumns: ['Country', 'City'] }),
    ]);
    expect([...twoWriters.readOnlyColumns.update]).toEqual(['Country']);
  });
});
