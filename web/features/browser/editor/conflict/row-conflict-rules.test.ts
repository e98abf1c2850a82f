import { describe, expect, it } from 'vitest';
import { ROW_VERSION_KEY } from '#common/contract/sql.ts';
import { ada, column, customersTable } from '#web/features/browser/editor/editor-test-table.ts';
import {
  allMine,
  conflictFields,
  initialChoices,
  mergedRow,
  versionedBody,
  withVersionOf,
} from './row-conflict.ts';

/* The conflict rules on their own (decision 0045); the view and the editor are tested in row-conflict.test.tsx. */

const table = customersTable();
const original = { ...ada, [ROW_VERSION_KEY]: 'v1' };

describe('the rules of a conflict', () => {
  it('lists the fields where mine and theirs differ, keeps theirs where mine cannot be written', () => {
    const mine = { ...original, first_name: 'Augusta', country_code: 'GB' };
    const theirs = { ...original, first_name: 'Ada L.', country_code: 'FR', [ROW_VERSION_KEY]: 'v2' };
    const fields = conflictFields(table, { original, mine, theirs });
    expect(fields.map((f) => [f.column.name, f.changedByMe, f.changedByThem, f.canKeepMine])).toEqual([
      ['first_name', true, true, true],
      // A foreign key cannot change in an existing row: theirs stays, whatever is chosen.
      ['country_code', false, true, false],
    ]);
    expect(initialChoices(fields)).toEqual({ first_name: 'mine', country_code: 'theirs' });
    expect(allMine(fields)).toEqual({ first_name: 'mine', country_code: 'theirs' });
    expect(mergedRow(theirs, fields, { first_name: 'mine', country_code: 'mine' })).toEqual({
      ...theirs,
      first_name: 'Augusta',
    });
  });

  it('sends the version of the row read with an existing row only', () => {
    expect(versionedBody(table, 'edit', { ...original, email: 'x@example.com' }, original)).toEqual({
      customer_id: 7,
      email: 'x@example.com',
      [ROW_VERSION_KEY]: 'v1',
    });
    // A copy saved as a new row was read as nothing.
    expect(versionedBody(table, 'add', { ...original, customer_id: null }, original)).not.toHaveProperty(
      ROW_VERSION_KEY,
    );
    // A table with a column of that name: the key is its column, never replaced by a version.
    const own = { columns: [...table.columns, column(16, ROW_VERSION_KEY)] };
    expect(withVersionOf(own, { customer_id: 7, [ROW_VERSION_KEY]: 'typed' }, original)).toEqual({
      customer_id: 7,
      [ROW_VERSION_KEY]: 'typed',
    });
    expect(withVersionOf(table, { customer_id: 7 }, ada)).toEqual({ customer_id: 7 });
  });
});
