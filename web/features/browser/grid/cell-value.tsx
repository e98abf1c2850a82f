import { useState } from 'react';
import { VisuallyHidden } from '@mantine/core';
import { IconSquare, IconSquareCheck } from '@tabler/icons-react';
import type { CellValue as WireValue, Column } from '#common/contract/sql.ts';
import {
  base64ByteCount,
  binaryText,
  byteSize,
  CELL_TEXT_LIMIT,
  CELL_TITLE_LIMIT,
  cutText,
  dateText,
  hexOf,
  imageSource,
  numberText,
  timeText,
} from './cell-format.ts';
import { CutCell } from './cut-cell.tsx';
import { compactJson, isJsonColumn } from './json-value.ts';
import classes from './data-grid.module.css';

/** Text longer than this gets the whole value as a title (the cell may cut it with an ellipsis). */
const TITLE_FROM_LENGTH = 24;
/** How many bytes of a binary value its title writes out. */
const TITLE_BYTES = 1024;

/** A value cut to fit a cell, the whole of it in the title when that says more. */
function ShortText({ text, full, mono }: { text: string; full?: string; mono?: boolean }) {
  const whole = full ?? text;
  const title =
    whole !== text || whole.length > TITLE_FROM_LENGTH ? cutText(whole, CELL_TITLE_LIMIT) : undefined;
  return (
    <span className={`${classes.value} ${classes.text}${mono ? ` ${classes.mono}` : ''}`} title={title}>
      {cutText(text, CELL_TEXT_LIMIT)}
    </span>
  );
}

/** An image as a small thumbnail; bytes that are not an image show their size instead. */
function Thumbnail({ value, column }: { value: string; column: Column }) {
  const [broken, setBroken] = useState(false);
  const size = byteSize(base64ByteCount(value));
  if (broken) return <ShortText text={`${column.name}: not an image (${size})`} />;
  return (
    <img
      className={classes.thumbnail}
      src={imageSource(value)}
      alt={`${column.name} image (${size})`}
      title={size}
      loading="lazy"
      onError={() => setBroken(true)}
    />
  );
}

/** One value of the grid (plain spans with the grid's classes: a page has up to 800 cells), written by its column's type group (spec 000 §2, §3). */
export function CellValue({ column, value, cut }: { column: Column; value: WireValue; cut?: number }) {
  if (value === null) {
    return <span className={classes.null}>null</span>;
  }
  // A value the page holds cut (decision 0066): its start, and its whole size (cut-cell.tsx).
  if (cut !== undefined) return <CutCell column={column} value={String(value)} length={cut} />;
  const text = String(value);
  // JSON on one line (json-value.ts); the value panel shows it as a tree.
  if (isJsonColumn(column)) return <ShortText text={compactJson(text)} full={text} mono />;
  switch (column.typeGroup) {
    case 'bit': {
      const on = value === true || value === 1 || text === '1' || text === 'true';
      const Icon = on ? IconSquareCheck : IconSquare;
      return (
        <span className={classes.bit} data-on={on || undefined}>
          <Icon size={18} stroke={1.6} aria-hidden />
          <VisuallyHidden>{on ? 'Yes' : 'No'}</VisuallyHidden>
        </span>
      );
    }
    case 'Number':
      return (
        <span className={`${classes.value} ${classes.number}`}>
          {typeof value === 'boolean' ? text : numberText(value, column)}
        </span>
      );
    case 'Date':
      return <ShortText text={dateText(text)} full={text} />;
    case 'Time':
      return <ShortText text={timeText(text)} full={text} />;
    case 'image':
      return <Thumbnail value={text} column={column} />;
    case 'Binary': {
      const hex = hexOf(text, TITLE_BYTES);
      const more = base64ByteCount(text) > TITLE_BYTES ? '…' : '';
      return <ShortText text={binaryText(text)} full={hex === null ? text : `0x${hex}${more}`} mono />;
    }
    case 'guid':
      return <ShortText text={text} mono />;
    default:
      return <ShortText text={text} />;
  }
}
