import type { Column } from '#common/contract/sql.ts';
import { CELL_TEXT_LIMIT, CELL_TITLE_LIMIT, cutText, hexOf } from './cell-format.ts';
import { shortSizeText, wholeSizeText } from './cut-values.ts';
import { compactJson, isJsonColumn } from './json-value.ts';
import classes from './data-grid.module.css';

/** How many bytes of a cut binary value its title writes out. */
const TITLE_BYTES = 1024;

/**
 * A cell whose value the page holds cut (docs/decisions/0066-cut-values.md): text and JSON as their start with an
 * ellipsis and the whole size beside it ("1.0M chars"); binary and images as their whole size (an image cut has no
 * picture to show). The title holds the start the page has and the whole size in words. Plain spans, as every cell.
 */
export function CutCell({ column, value, length }: { column: Column; value: string; length: number }) {
  const whole = wholeSizeText(column, length);
  if (column.typeGroup === 'Binary' || column.typeGroup === 'image') {
    const hex = hexOf(value, TITLE_BYTES);
    const text = column.typeGroup === 'image' ? `${column.name}: image (${whole})` : `${whole} binary`;
    return (
      <span
        className={`${classes.value} ${classes.text} ${classes.mono}`}
        title={hex === null ? whole : `0x${hex}… (${whole})`}
        data-cut=""
      >
        {text}
      </span>
    );
  }
  const json = isJsonColumn(column);
  const shown = json ? compactJson(value) : value;
  return (
    <>
      <span
        className={`${classes.value} ${classes.text}${json ? ` ${classes.mono}` : ''}`}
        title={`${cutText(value, CELL_TITLE_LIMIT)}… (${whole})`}
        data-cut=""
      >
        {`${cutText(shown, CELL_TEXT_LIMIT).replace(/…$/, '')}…`}
      </span>
      <span className={classes.cutSize} aria-label={whole}>
        {shortSizeText(column, length)}
      </span>
    </>
  );
}
