import { describe, expect, it } from 'vitest';
import type { SavedView } from '#common/contract/views.ts';
import { sameState, sharingText, stateOfView, viewInputOf } from './view-state.ts';

const saved: SavedView = {
  Id: 4,
  name: 'Long tracks',
  columns: [
    { name: 'Milliseconds', width: 160 },
    { name: 'Name', pinned: true },
  ],
  orderBy: '-Milliseconds',
  where: { column: 'Milliseconds', op: 'gt', value: 300000 },
  pageSize: 40,
  shared: 'everyone',
  author: 'ada',
  mine: true,
  updatedAt: '2026-12-02T18:00:00.000Z',
  dropped: [],
  problems: [],
};

describe('view state', () => {
  it('opens a view with its columns, sort, filter and page size', () => {
    expect(stateOfView(saved)).toEqual({
      columns: saved.columns,
      sort: '-Milliseconds',
      where: saved.where,
      size: 40,
    });
    expect(stateOfView({ ...saved, columns: [] }).columns).toBeNull();
  });

  it('compares filters whatever the order of their keys', () => {
    const state = stateOfView(saved);
    expect(sameState(state, { ...state, where: { value: 300000, op: 'gt', column: 'Milliseconds' } })).toBe(
      true,
    );
    expect(sameState(state, { ...state, sort: 'Milliseconds' })).toBe(false);
    expect(sameState(state, { ...state, columns: [...(state.columns ?? [])].reverse() })).toBe(false);
  });

  it('saves a state as the body of POST …/views', () => {
    expect(
      viewInputOf(
        { columns: null, sort: null, where: null, size: 20 },
        { id: 0, name: 'All', shared: 'private' },
      ),
    ).toEqual({
      Id: 0,
      name: 'All',
      columns: [],
      orderBy: null,
      where: null,
      pageSize: 20,
      shared: 'private',
    });
  });

  it('says who may open a view', () => {
    expect(sharingText('private')).toBe('Only you');
    expect(sharingText({ roleIds: [2, 3] })).toBe('2 roles');
  });
});
