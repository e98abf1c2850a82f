import { describe, expect, it } from 'vitest';
import { browserMessages } from '#common/messages.ts';
import { editorMessages } from './editor-messages.ts';
import {
  closeRefusal,
  deleteRefusal,
  editorReducer,
  isPending,
  openEditor,
  type EditorAction,
  type EditorState,
} from './editor-state.ts';
import { ada, customersTable } from './editor-test-table.ts';

const table = customersTable();
const run = (state: EditorState, ...actions: EditorAction[]) =>
  actions.reduce((current, action) => editorReducer(table, current, action), state);

describe('the row editor states (spec 000 §4)', () => {
  it('opens clean on an existing row (edit) and on a new one with its defaults (add)', () => {
    const edit = openEditor(table, 'edit', ada);
    expect(edit.mode).toBe('edit');
    expect(edit.values).toBe(ada);
    expect(isPending(edit)).toBe(false);
    const add = openEditor(table, 'add', null);
    expect(add.mode).toBe('add');
    const { loyalty_points, is_active, ...others } = add.values;
    expect([loyalty_points, is_active]).toEqual([0, true]);
    expect(Object.values(others).every((v) => v === null)).toBe(true);
    expect(isPending(add)).toBe(false);
  });

  it('changes on the first edit, and the edit marks the field for its message', () => {
    const state = run(openEditor(table, 'edit', ada), {
      type: 'change',
      column: 'first_name',
      value: 'Augusta',
    });
    expect(isPending(state)).toBe(true);
    expect(state.marked.has('first_name')).toBe(true);
  });

  it('a value typed back to the saved one is clean again', () => {
    const state = run(
      openEditor(table, 'edit', ada),
      { type: 'change', column: 'loyalty_points', value: '121' },
      { type: 'change', column: 'loyalty_points', value: '120' },
    );
    expect(isPending(state)).toBe(false);
  });

  it('Discard restores the backup and is clean', () => {
    const state = run(
      openEditor(table, 'edit', ada),
      { type: 'change', column: 'first_name', value: 'Augusta' },
      { type: 'discard' },
    );
    expect(state.values).toEqual(ada);
    expect(isPending(state)).toBe(false);
    expect(state.marked.size).toBe(0);
  });

  it('a saved row becomes the backup, in edit mode, clean (also after adding)', () => {
    const saved = { ...ada, customer_id: 8, first_name: 'Grace' };
    const state = run(
      openEditor(table, 'add', null),
      { type: 'change', column: 'first_name', value: 'Grace' },
      { type: 'saved', row: saved },
    );
    expect(state.mode).toBe('edit');
    expect(state.values).toBe(saved);
    expect(state.backup).toEqual({ mode: 'edit', row: saved });
    expect(isPending(state)).toBe(false);
  });

  it('Copy makes a new row (pending) without identity, guid or computed values; Discard goes back to the row', () => {
    const copied = run(openEditor(table, 'edit', ada), { type: 'copy' });
    expect(copied.mode).toBe('add');
    expect(copied.values.customer_id).toBeNull();
    expect(copied.values.customer_guid).toBeNull();
    expect(copied.values.full_name).toBeNull();
    expect(copied.values.first_name).toBe('Ada');
    expect(isPending(copied)).toBe(true);
    const back = run(copied, { type: 'discard' });
    expect(back.mode).toBe('edit');
    expect(back.values).toBe(ada);
  });

  it('keeps text that names no option (pending, marked) until an option is chosen or the change discarded', () => {
    const typed = run(openEditor(table, 'add', null), {
      type: 'typed',
      column: 'country_code',
      text: 'Atlantis',
    });
    expect(typed.typed).toEqual({ country_code: 'Atlantis' });
    expect(typed.marked.has('country_code')).toBe(true);
    expect(isPending(typed)).toBe(true);
    expect(run(typed, { type: 'change', column: 'country_code', value: 'GB' }).typed).toEqual({});
    expect(run(typed, { type: 'typed', column: 'country_code', text: null }).typed).toEqual({});
    const discarded = run(typed, { type: 'discard' });
    expect(discarded.typed).toEqual({});
    expect(isPending(discarded)).toBe(false);
  });

  it('leaving a field marks it; the whole-form check marks them all', () => {
    const left = run(openEditor(table, 'add', null), { type: 'leave', column: 'email' });
    expect([...left.marked]).toEqual(['email']);
    expect(isPending(left)).toBe(false);
    const all = run(left, { type: 'markAll' });
    expect(all.marked.size).toBe(table.columns.length);
  });

  it("refuses Delete with pending changes ('Cannot delete with pending changes.') and closing too", () => {
    const clean = openEditor(table, 'edit', ada);
    expect(deleteRefusal(clean)).toBeNull();
    expect(closeRefusal(clean)).toBeNull();
    const changed = run(clean, { type: 'change', column: 'first_name', value: 'X' });
    expect(deleteRefusal(changed)).toBe(browserMessages.cannotDeleteWithPendingChanges);
    expect(closeRefusal(changed)).toBe(editorMessages.closeWithPendingChanges);
  });
});
