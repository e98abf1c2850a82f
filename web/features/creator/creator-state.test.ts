import { describe, expect, it } from 'vitest';
import {
  creatorReducer,
  initialCreatorState,
  parseLayout,
  pointToCell,
  serializeLayout,
  specOf,
  type CreatorState,
} from '#web/features/creator/creator-state.ts';
import { renderTemplate, templates } from '#web/features/creator/templates.ts';

const [heading1, heading2] = templates;

function placed(x: number, y: number, state: CreatorState = initialCreatorState()): CreatorState {
  const held = creatorReducer(state, { type: 'hold', spec: specOf(heading1!) });
  return creatorReducer(creatorReducer(held, { type: 'follow', x, y }), { type: 'place' });
}

describe('templates (spec 001 §2)', () => {
  it('are Heading 1 (12 by 6) and Heading 2 (8 by 4), each with a Text parameter defaulting to Title', () => {
    expect(templates.map((t) => [t.name, t.width, t.height])).toEqual([
      ['Heading 1', 12, 6],
      ['Heading 2', 8, 4],
    ]);
    for (const t of templates)
      expect(t.params).toEqual([{ name: 'text', friendlyName: 'Text', value: 'Title' }]);
  });

  it('fill @param placeholders with escaped text', () => {
    expect(
      renderTemplate(heading2!.html, [{ name: 'text', friendlyName: 'Text', value: '<b>Hi</b> & co' }]),
    ).toBe('<h2>&lt;b&gt;Hi&lt;/b&gt; &amp; co</h2>');
  });
});

describe('placement in vw/vh', () => {
  it('turns a pointer position into the grid cell under it (1vw by 1vh)', () => {
    expect(pointToCell(683, 450, { width: 1366, height: 900 })).toEqual({ x: 50, y: 50 });
    expect(pointToCell(13.65, 8.99, { width: 1366, height: 900 })).toEqual({ x: 0, y: 0 });
    expect(pointToCell(1365, 899, { width: 1366, height: 900 })).toEqual({ x: 99, y: 99 });
  });

  it('holds the configured element, follows the pointer, and places it where the click is', () => {
    const spec = { ...specOf(heading1!), width: 20 };
    let state = creatorReducer(initialCreatorState(), { type: 'hold', spec });
    expect(state.held).toMatchObject({ template: 'Heading 1', width: 20, height: 6, x: 40, y: 47 });
    state = creatorReducer(state, { type: 'follow', x: 10, y: 30 });
    expect(state.held).toMatchObject({ x: 10, y: 30 });
    state = creatorReducer(state, { type: 'place' });
    expect(state.held).toBeNull();
    expect(state.elements).toEqual([{ ...spec, id: 'e1', x: 10, y: 30 }]);
    expect(state.selectedId).toBe('e1');
  });

  it('keeps a held element inside the grid', () => {
    let state = creatorReducer(initialCreatorState(), { type: 'hold', spec: specOf(heading1!) });
    state = creatorReducer(state, { type: 'follow', x: 95, y: 99 });
    expect(state.held).toMatchObject({ x: 88, y: 94 });
    state = creatorReducer(state, { type: 'moveHeld', dx: -200, dy: -1 });
    expect(state.held).toMatchObject({ x: 0, y: 93 });
  });

  it('cancels a held element without placing it', () => {
    const state = creatorReducer(
      creatorReducer(initialCreatorState(), { type: 'hold', spec: specOf(heading2!) }),
      {
        type: 'cancel',
      },
    );
    expect(state.held).toBeNull();
    expect(state.elements).toEqual([]);
  });
});

describe('select, move, delete', () => {
  it('selects a placed element, and nothing for an unknown id', () => {
    const state = placed(5, 5);
    expect(creatorReducer(state, { type: 'select', id: null }).selectedId).toBeNull();
    expect(creatorReducer(state, { type: 'select', id: 'e9' })).toBe(state);
  });

  it('moves by steps and to a cell, inside the grid', () => {
    let state = placed(5, 5);
    state = creatorReducer(state, { type: 'moveBy', id: 'e1', dx: 1, dy: -2 });
    expect(state.elements[0]).toMatchObject({ x: 6, y: 3 });
    state = creatorReducer(state, { type: 'moveTo', id: 'e1', x: 200, y: -4 });
    expect(state.elements[0]).toMatchObject({ x: 88, y: 0 });
    expect(creatorReducer(state, { type: 'moveBy', id: 'e1', dx: 1, dy: 0 })).toBe(state);
  });

  it('deletes an element and clears the selection', () => {
    let state = placed(50, 50, placed(5, 5));
    expect(state.elements.map((e) => e.id)).toEqual(['e1', 'e2']);
    state = creatorReducer(state, { type: 'delete', id: 'e2' });
    expect(state.elements.map((e) => e.id)).toEqual(['e1']);
    expect(state.selectedId).toBeNull();
  });
});

describe('save and restore', () => {
  it('restores what was saved, and numbers new elements after it', () => {
    const state = placed(50, 20, placed(5, 5));
    const restored = parseLayout(serializeLayout(state.elements));
    expect(restored).toEqual(state.elements);
    expect(placed(0, 0, initialCreatorState(restored)).elements.at(-1)?.id).toBe('e3');
  });

  it('gives an empty layout for nothing, broken JSON or another shape', () => {
    expect(parseLayout(null)).toEqual([]);
    expect(parseLayout('{')).toEqual([]);
    expect(parseLayout('{"version":2,"elements":[]}')).toEqual([]);
  });

  it('drops unknown templates and keeps the rest inside the grid', () => {
    const [element] = placed(5, 5).elements;
    const text = JSON.stringify({
      version: 1,
      elements: [
        { ...element, x: 150, y: -3, width: 12.4 },
        { ...element, id: 'e2', template: 'Script' },
      ],
    });
    expect(parseLayout(text)).toEqual([{ ...element, x: 88, y: 0, width: 12 }]);
  });
});
