import { describe, expect, it } from 'vitest';
import { clampPosition, moveFocus, PAGE_ROWS, positionOf } from './grid-focus.ts';

/* The grid's focus moves (WAI-ARIA grid pattern): row 0 is the header row, 1 to 20 the data rows. */
const bounds = { rows: 20, columns: 8 };

describe('moveFocus', () => {
  it('moves one cell with the arrows and stops at the edges', () => {
    expect(moveFocus({ row: 3, column: 2 }, 'ArrowRight', bounds)).toEqual({ row: 3, column: 3 });
    expect(moveFocus({ row: 3, column: 7 }, 'ArrowRight', bounds)).toEqual({ row: 3, column: 7 });
    expect(moveFocus({ row: 3, column: 0 }, 'ArrowLeft', bounds)).toEqual({ row: 3, column: 0 });
    expect(moveFocus({ row: 1, column: 2 }, 'ArrowUp', bounds)).toEqual({ row: 0, column: 2 });
    expect(moveFocus({ row: 0, column: 2 }, 'ArrowUp', bounds)).toEqual({ row: 0, column: 2 });
    expect(moveFocus({ row: 20, column: 2 }, 'ArrowDown', bounds)).toEqual({ row: 20, column: 2 });
  });

  it('goes to the ends of a row with Home and End, of the grid with Ctrl', () => {
    expect(moveFocus({ row: 5, column: 4 }, 'Home', bounds)).toEqual({ row: 5, column: 0 });
    expect(moveFocus({ row: 5, column: 4 }, 'End', bounds)).toEqual({ row: 5, column: 7 });
    expect(moveFocus({ row: 5, column: 4 }, 'Home', bounds, true)).toEqual({ row: 0, column: 0 });
    expect(moveFocus({ row: 5, column: 4 }, 'End', bounds, true)).toEqual({ row: 20, column: 7 });
  });

  it('moves a number of rows with Page Up and Page Down, Page Up no further than the first data row', () => {
    expect(moveFocus({ row: 1, column: 1 }, 'PageDown', bounds)).toEqual({ row: 1 + PAGE_ROWS, column: 1 });
    expect(moveFocus({ row: 15, column: 1 }, 'PageDown', bounds)).toEqual({ row: 20, column: 1 });
    expect(moveFocus({ row: 5, column: 1 }, 'PageUp', bounds)).toEqual({ row: 1, column: 1 });
    expect(moveFocus({ row: 0, column: 1 }, 'PageUp', bounds)).toEqual({ row: 0, column: 1 });
  });

  it('is not a move for other keys', () => {
    expect(moveFocus({ row: 1, column: 1 }, 'Enter', bounds)).toBeNull();
    expect(moveFocus({ row: 1, column: 1 }, 'c', bounds, true)).toBeNull();
  });

  it('keeps a position inside the grid when the page shrinks, in the header when there are no rows', () => {
    expect(clampPosition({ row: 18, column: 9 }, { rows: 3, columns: 4 })).toEqual({ row: 3, column: 3 });
    expect(clampPosition({ row: 1, column: 0 }, { rows: 0, columns: 4 })).toEqual({ row: 0, column: 0 });
  });

  it('reads the cell an event came from', () => {
    const cell = document.createElement('td');
    cell.setAttribute('data-cell', '4:2');
    const inner = document.createElement('button');
    cell.append(inner);
    expect(positionOf(inner)).toEqual({ row: 4, column: 2 });
    expect(positionOf(document.createElement('div'))).toBeNull();
  });
});
