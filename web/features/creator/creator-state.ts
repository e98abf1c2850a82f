import { z } from 'zod';
import {
  templateNamed,
  type Alignment,
  type Template,
  type TemplateParam,
} from '#web/features/creator/templates.ts';

/*
 * The content creator's state (spec 001 §2, §4, §9), pure: the placed elements, the element held under the pointer
 * after Add Element, and the selected one. Positions and sizes are in grid cells, one cell being 1vw by 1vh, so an
 * element at x 10, y 20 sits at left 10vw, top 20vh, and the whole viewport is 100 by 100 cells.
 */

/** Spec 001 §9: the grid's cells per side (each 1vw wide and 1vh tall). */
export const GRID_CELLS = 100;

/** Where the layout is kept in the browser. */
export const LAYOUT_STORAGE_KEY = 'dbui-creator-layout-v1';

/** An element as configured in the preview: its template's name, size, alignments and parameter values. */
export interface ElementSpec {
  template: string;
  width: number;
  height: number;
  horizontalAlignment: Alignment;
  verticalAlignment: Alignment;
  params: TemplateParam[];
}

/** An element on the grid, its top-left corner at x vw, y vh. */
export interface PlacedElement extends ElementSpec {
  id: string;
  x: number;
  y: number;
}

/** The element that follows the pointer until a click places it. */
export type HeldElement = Omit<PlacedElement, 'id'>;

export interface CreatorState {
  elements: PlacedElement[];
  held: HeldElement | null;
  selectedId: string | null;
  nextId: number;
}

export type CreatorAction =
  | { type: 'hold'; spec: ElementSpec }
  | { type: 'follow'; x: number; y: number }
  | { type: 'moveHeld'; dx: number; dy: number }
  | { type: 'place' }
  | { type: 'cancel' }
  | { type: 'select'; id: string | null }
  | { type: 'moveBy'; id: string; dx: number; dy: number }
  | { type: 'moveTo'; id: string; x: number; y: number }
  | { type: 'delete'; id: string };

/** A preview's starting point: the template as the spec defines it. */
export function specOf(template: Template): ElementSpec {
  return {
    template: template.name,
    width: template.width,
    height: template.height,
    horizontalAlignment: template.horizontalAlignment,
    verticalAlignment: template.verticalAlignment,
    params: template.params.map((p) => ({ ...p })),
  };
}

/** A whole number of cells between 1 and the grid's side. */
export function clampSize(size: number): number {
  if (!Number.isFinite(size)) return 1;
  return Math.min(GRID_CELLS, Math.max(1, Math.round(size)));
}

/** A position that keeps an element of that size inside the grid, on whole cells. */
export function clampPosition(position: number, size: number): number {
  if (!Number.isFinite(position)) return 0;
  return Math.min(GRID_CELLS - clampSize(size), Math.max(0, Math.round(position)));
}

/** The grid cell under a point of the viewport (pixels), in vw and vh. */
export function pointToCell(
  clientX: number,
  clientY: number,
  viewport: { width: number; height: number },
): { x: number; y: number } {
  return {
    x: Math.floor((clientX * GRID_CELLS) / Math.max(1, viewport.width)),
    y: Math.floor((clientY * GRID_CELLS) / Math.max(1, viewport.height)),
  };
}

function within<T extends { width: number; height: number }>(
  element: T,
  x: number,
  y: number,
): T & { x: number; y: number } {
  return { ...element, x: clampPosition(x, element.width), y: clampPosition(y, element.height) };
}

/** The state at start: the elements restored from the browser, none held or selected. */
export function initialCreatorState(elements: PlacedElement[] = []): CreatorState {
  const highest = elements.reduce((max, e) => Math.max(max, Number(/^e(\d+)$/.exec(e.id)?.[1] ?? 0)), 0);
  return { elements, held: null, selectedId: null, nextId: highest + 1 };
}

export function creatorReducer(state: CreatorState, action: CreatorAction): CreatorState {
  switch (action.type) {
    case 'hold': {
      const width = clampSize(action.spec.width);
      const height = clampSize(action.spec.height);
      const spec = { ...action.spec, width, height, params: action.spec.params.map((p) => ({ ...p })) };
      // Until the pointer moves it starts in the middle of the grid.
      const held = within(spec, (GRID_CELLS - width) / 2, (GRID_CELLS - height) / 2);
      return { ...state, held, selectedId: null };
    }
    case 'follow':
      return state.held ? { ...state, held: within(state.held, action.x, action.y) } : state;
    case 'moveHeld':
      return state.held
        ? { ...state, held: within(state.held, state.held.x + action.dx, state.held.y + action.dy) }
        : state;
    case 'place': {
      if (!state.held) return state;
      const id = `e${state.nextId}`;
      return {
        elements: [...state.elements, { ...state.held, id }],
        held: null,
        selectedId: id,
        nextId: state.nextId + 1,
      };
    }
    case 'cancel':
      return state.held ? { ...state, held: null } : state;
    case 'select':
      if (action.id !== null && !state.elements.some((e) => e.id === action.id)) return state;
      return { ...state, selectedId: action.id };
    case 'moveBy':
    case 'moveTo': {
      let changed = false;
      const elements = state.elements.map((e) => {
        if (e.id !== action.id) return e;
        const moved =
          action.type === 'moveBy'
            ? within(e, e.x + action.dx, e.y + action.dy)
            : within(e, action.x, action.y);
        if (moved.x === e.x && moved.y === e.y) return e;
        changed = true;
        return moved;
      });
      return changed ? { ...state, elements } : state;
    }
    case 'delete': {
      if (!state.elements.some((e) => e.id === action.id)) return state;
      return {
        ...state,
        elements: state.elements.filter((e) => e.id !== action.id),
        selectedId: state.selectedId === action.id ? null : state.selectedId,
      };
    }
  }
}

const alignment = z.enum(['start', 'center', 'end']);
const storedLayout = z.object({
  version: z.literal(1),
  elements: z.array(
    z.object({
      id: z.string().regex(/^e\d+$/),
      template: z.string(),
      x: z.number(),
      y: z.number(),
      width: z.number(),
      height: z.number(),
      horizontalAlignment: alignment,
      verticalAlignment: alignment,
      params: z.array(z.object({ name: z.string(), friendlyName: z.string(), value: z.string().max(1000) })),
    }),
  ),
});

/** The layout as kept in the browser. */
export function serializeLayout(elements: readonly PlacedElement[]): string {
  return JSON.stringify({ version: 1, elements });
}

/**
 * The layout read back: elements of known templates only, kept inside the grid, with the template's own
 * parameters (a stored value for each, else the default). Anything unreadable gives an empty layout.
 */
export function parseLayout(text: string | null): PlacedElement[] {
  if (text === null) return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return [];
  }
  const parsed = storedLayout.safeParse(json);
  if (!parsed.success) return [];
  const seen = new Set<string>();
  return parsed.data.elements.flatMap((stored) => {
    const template = templateNamed(stored.template);
    if (!template || seen.has(stored.id)) return [];
    seen.add(stored.id);
    const width = clampSize(stored.width);
    const height = clampSize(stored.height);
    const params = template.params.map((p) => ({
      ...p,
      value: stored.params.find((s) => s.name === p.name)?.value ?? p.value,
    }));
    return [
      {
        id: stored.id,
        template: template.name,
        width,
        height,
        horizontalAlignment: stored.horizontalAlignment,
        verticalAlignment: stored.verticalAlignment,
        params,
        x: clampPosition(stored.x, width),
        y: clampPosition(stored.y, height),
      },
    ];
  });
}
