import { useEffect, useReducer, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { Link } from 'react-router';
import { Button, Group, Kbd, Paper, Stack, Text, Title } from '@mantine/core';
import { IconHome, IconTemplate, IconTrash } from '@tabler/icons-react';
import {
  creatorReducer,
  initialCreatorState,
  LAYOUT_STORAGE_KEY,
  parseLayout,
  pointToCell,
  serializeLayout,
  type HeldElement,
  type PlacedElement,
} from '#web/features/creator/creator-state.ts';
import classes from '#web/features/creator/creator-page.module.css';
import { ElementContent } from '#web/features/creator/element-content.tsx';
import { TemplatesModal } from '#web/features/creator/templates-modal.tsx';
import { flexAlignment, templateText } from '#web/features/creator/templates.ts';

function readLayout(): PlacedElement[] {
  try {
    return parseLayout(localStorage.getItem(LAYOUT_STORAGE_KEY));
  } catch {
    return [];
  }
}

/** Keys typed into a field are the field's, not the workspace's. */
function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  );
}

function describe(element: HeldElement): string {
  return `${element.template} “${templateText(element.params)}” at ${element.x} vw, ${element.y} vh`;
}

const ARROWS: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

interface Drag {
  id: string;
  pointerId: number;
  /** The grabbed cell's offset from the element's top-left corner. */
  dx: number;
  dy: number;
}

/**
 * Spec 001 §2, §4: the grid, the placed elements, and the element held after Add Element, which follows the mouse
 * until a click places it. Beyond the original: an element is selected by a click (or Tab and Enter), moved by
 * dragging (or the arrow keys, Shift for 10), deleted by Delete or the toolbar's button, and the layout is kept in
 * localStorage. T or t opens the Templates modal.
 */
export function CreatorWorkspace() {
  const [state, dispatch] = useReducer(creatorReducer, undefined, () => initialCreatorState(readLayout()));
  const [templatesOpen, setTemplatesOpen] = useState(false);
  const [drag, setDrag] = useState<Drag | null>(null);
  const workspace = useRef<HTMLDivElement>(null);
  const templatesButton = useRef<HTMLButtonElement>(null);
  const selected = state.elements.find((e) => e.id === state.selectedId) ?? null;

  // The layout is kept in the browser after each change.
  useEffect(() => {
    try {
      localStorage.setItem(LAYOUT_STORAGE_KEY, serializeLayout(state.elements));
    } catch {
      // Storage full or refused: the layout stays for this visit only.
    }
  }, [state.elements]);

  // T opens the templates; while an element is held, the arrow keys move it, Enter places it and Escape drops it.
  useEffect(() => {
    function onKeyDown(event: globalThis.KeyboardEvent) {
      if (templatesOpen || isTyping(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
      if (state.held) {
        const arrow = ARROWS[event.key];
        const step = event.shiftKey ? 10 : 1;
        if (arrow) dispatch({ type: 'moveHeld', dx: arrow[0] * step, dy: arrow[1] * step });
        else if (event.key === 'Enter') dispatch({ type: 'place' });
        else if (event.key === 'Escape') dispatch({ type: 'cancel' });
        else return;
        event.preventDefault();
        return;
      }
      if (event.key === 't' || event.key === 'T') {
        event.preventDefault();
        setTemplatesOpen(true);
      }
    }
    window.addEventListener('keydown', onKeyDown, { capture: true });
    return () => window.removeEventListener('keydown', onKeyDown, { capture: true });
  }, [templatesOpen, state.held]);

  // A placed element takes the focus, so the keys that move and delete it work at once.
  const placedId = state.held === null ? state.selectedId : null;
  useEffect(() => {
    if (placedId) workspace.current?.querySelector<HTMLElement>(`[data-element-id="${placedId}"]`)?.focus();
  }, [placedId]);

  function cellAt(event: { clientX: number; clientY: number }) {
    const box = workspace.current?.getBoundingClientRect();
    if (!box) return { x: 0, y: 0 };
    return pointToCell(event.clientX - box.left, event.clientY - box.top, box);
  }

  function onPointerMove(event: PointerEvent<HTMLDivElement>) {
    if (state.held) {
      dispatch({ type: 'follow', ...cellAt(event) });
    } else if (drag && drag.pointerId === event.pointerId) {
      const cell = cellAt(event);
      dispatch({ type: 'moveTo', id: drag.id, x: cell.x - drag.dx, y: cell.y - drag.dy });
    }
  }

  function onWorkspaceClick(event: { clientX: number; clientY: number }) {
    if (state.held) {
      // A tap on a touch screen has no pointer moves before it: the element goes where the tap is.
      dispatch({ type: 'follow', ...cellAt(event) });
      dispatch({ type: 'place' });
    } else {
      dispatch({ type: 'select', id: null });
    }
  }

  function onElementPointerDown(element: PlacedElement, event: PointerEvent<HTMLDivElement>) {
    if (state.held || event.button !== 0) return;
    dispatch({ type: 'select', id: element.id });
    const cell = cellAt(event);
    event.currentTarget.setPointerCapture(event.pointerId);
    setDrag({ id: element.id, pointerId: event.pointerId, dx: cell.x - element.x, dy: cell.y - element.y });
  }

  function onElementKeyDown(element: PlacedElement, event: KeyboardEvent<HTMLDivElement>) {
    if (state.held) return;
    const arrow = ARROWS[event.key];
    if (event.key === 'Enter' || event.key === ' ') {
      dispatch({ type: 'select', id: state.selectedId === element.id ? null : element.id });
    } else if (arrow && state.selectedId === element.id) {
      const step = event.shiftKey ? 10 : 1;
      dispatch({ type: 'moveBy', id: element.id, dx: arrow[0] * step, dy: arrow[1] * step });
    } else if ((event.key === 'Delete' || event.key === 'Backspace') && state.selectedId === element.id) {
      remove(element.id);
    } else if (event.key === 'Escape' && state.selectedId === element.id) {
      dispatch({ type: 'select', id: null });
    } else {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
  }

  function remove(id: string) {
    dispatch({ type: 'delete', id });
    templatesButton.current?.focus();
  }

  const status = state.held
    ? `${describe(state.held)} follows the mouse: click to place it (or arrow keys, then Enter); Escape cancels.`
    : selected
      ? `Selected: ${describe(selected)}. Drag it or use the arrow keys; Delete removes it.`
      : state.elements.length === 0
        ? 'Press T or choose Templates to add an element.'
        : `${state.elements.length} ${state.elements.length === 1 ? 'element' : 'elements'}, saved in this browser. Click one, or Tab to it and press Enter, to select it.`;

  return (
    // The modal is outside the workspace: clicks in its portal would otherwise reach the workspace's handlers.
    <>
      <div
        ref={workspace}
        className={`${classes.workspace} ${state.held ? classes.holding : ''}`}
        onPointerMove={onPointerMove}
        onPointerUp={() => setDrag(null)}
        onPointerCancel={() => setDrag(null)}
        onClick={onWorkspaceClick}
      >
        <section aria-label="Canvas">
          {state.elements.map((element) => (
            <div
              key={element.id}
              data-element-id={element.id}
              role="button"
              tabIndex={0}
              aria-pressed={element.id === state.selectedId}
              aria-label={describe(element)}
              className={[
                classes.element,
                element.id === state.selectedId ? classes.selected : '',
                drag?.id === element.id ? classes.dragging : '',
              ].join(' ')}
              style={boxStyle(element)}
              onPointerDown={(event) => onElementPointerDown(element, event)}
              onClick={(event) => {
                // A click on an element selects it (the pointer down did); a held element is placed wherever it is.
                if (!state.held) event.stopPropagation();
              }}
              onKeyDown={(event) => onElementKeyDown(element, event)}
            >
              <ElementContent spec={element} />
            </div>
          ))}
          {state.held && (
            <div
              className={`${classes.element} ${classes.held}`}
              style={boxStyle(state.held)}
              aria-hidden="true"
            >
              <ElementContent spec={state.held} />
            </div>
          )}
        </section>

        <Paper
          className={classes.toolbar}
          shadow="md"
          p="xs"
          withBorder
          component="section"
          aria-label="Content creator tools"
          onClick={(event) => event.stopPropagation()}
          onPointerMove={(event) => {
            if (!state.held) event.stopPropagation();
          }}
        >
          <Stack gap={6}>
            <Group gap="xs" wrap="wrap">
              <Title order={1} size="h5">
                Content creator
              </Title>
              <Button
                ref={templatesButton}
                size="xs"
                leftSection={<IconTemplate size={14} aria-hidden="true" />}
                rightSection={<Kbd size="xs">T</Kbd>}
                aria-keyshortcuts="T"
                onClick={() => setTemplatesOpen(true)}
                disabled={state.held !== null}
              >
                Templates
              </Button>
              <Button
                size="xs"
                color="red"
                variant="light"
                leftSection={<IconTrash size={14} aria-hidden="true" />}
                disabled={!selected}
                onClick={() => selected && remove(selected.id)}
              >
                Delete element
              </Button>
              <Button
                size="xs"
                variant="default"
                component={Link}
                to="/home"
                leftSection={<IconHome size={14} aria-hidden="true" />}
              >
                Home
              </Button>
            </Group>
            <Text size="xs" role="status" maw={520}>
              {status}
            </Text>
          </Stack>
        </Paper>
      </div>
      <TemplatesModal
        opened={templatesOpen}
        onClose={() => setTemplatesOpen(false)}
        onAdd={(spec) => {
          setTemplatesOpen(false);
          dispatch({ type: 'hold', spec });
        }}
      />
    </>
  );
}

function boxStyle(element: HeldElement) {
  return {
    left: `${element.x}vw`,
    top: `${element.y}vh`,
    width: `${element.width}vw`,
    height: `${element.height}vh`,
    justifyContent: flexAlignment[element.horizontalAlignment],
    alignItems: flexAlignment[element.verticalAlignment],
    ['--el-w' as string]: element.width,
    ['--el-h' as string]: element.height,
  };
}
