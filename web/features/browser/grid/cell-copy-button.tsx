import { useEffect, useState } from 'react';
import { notifications } from '@mantine/notifications';
import { CopyRefusal } from './cut-values.ts';
import classes from './data-grid.module.css';

/** Texts of the copy action (our own sentences; the spec has none for it). */
export const copyMessages = {
  copy: (column: string) => `Copy ${column}`,
  copied: (column: string) => `${column} copied.`,
  failed: 'The browser did not allow copying.',
} as const;

/** How long the button shows its check mark after a copy. */
const COPIED_MS = 1500;

/**
 * Puts text on the clipboard; where the Clipboard API is missing (plain http), through a hidden text area. Text still
 * being read (a cut value read whole first, cut-values.ts) goes in a ClipboardItem that waits for it, so the browser
 * keeps the click's permission to write while the read runs; where that is missing, it is written once read.
 */
async function writeClipboard(pending: string | Promise<string>): Promise<void> {
  if (typeof pending !== 'string' && typeof ClipboardItem !== 'undefined' && navigator.clipboard?.write) {
    const blob = pending.then((text) => new Blob([text], { type: 'text/plain' }));
    try {
      await navigator.clipboard.write([new ClipboardItem({ 'text/plain': blob })]);
      return;
    } catch {
      // The read's own failure says more than the clipboard's (awaiting it throws that); else try plain text.
    }
  }
  const text = await pending;
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const done = document.execCommand('copy');
  area.remove();
  if (!done) throw new Error(copyMessages.failed);
}

/** Copies a cell's text and says so in a toast (or that the browser refused, or why a cut value could not be read
 * whole); `onCopied` marks the cell. Used by the copy button and by the grid's Ctrl+C / ⌘+C. */
export function copyCellText(column: string, text: string | Promise<string>, onCopied: () => void): void {
  writeClipboard(text).then(
    () => {
      onCopied();
      notifications.show({ color: 'green', message: copyMessages.copied(column) });
    },
    (error: unknown) =>
      notifications.show({
        color: 'red',
        message: error instanceof CopyRefusal ? error.message : copyMessages.failed,
      }),
  );
}

/**
 * A plain button (not Mantine's ActionIcon: a page has up to 800 of them, and each ActionIcon costs a theme and
 * styles lookup) that copies one cell's value, shown on hover of its cell or while its cell has the keyboard focus;
 * a toast says it. It is never a tab stop (the grid is one: keyboard users copy the active cell with Ctrl+C or ⌘+C).
 * It stops its click so the row does not open. It holds no state: the text is worked out on the click (a binary
 * value's hex is not built for every cell), and the grid says which cell was just copied (`copied` shows the check
 * mark).
 */
export function CellCopyButton({
  column,
  text,
  copied,
  onCopied,
  className,
}: {
  column: string;
  /** The value as the clipboard gets it, asked for on the click (a promise while a cut value is read whole). */
  text: () => string | Promise<string>;
  copied: boolean;
  onCopied: () => void;
  className?: string;
}) {
  return (
    <button
      type="button"
      className={className ? `${classes.copyButton} ${className}` : classes.copyButton}
      aria-label={copyMessages.copy(column)}
      tabIndex={-1}
      data-copied={copied || undefined}
      onClick={(event) => {
        event.stopPropagation();
        copyCellText(column, text(), onCopied);
      }}
      onKeyDown={(event) => {
        // Enter and Space press the button; they must not reach the row (which opens on Enter).
        if (event.key === 'Enter' || event.key === ' ') event.stopPropagation();
      }}
    ></button>
  );
}

/** Which cell was copied last ("row:column"), for COPIED_MS: the grid keeps one of these for all its buttons. */
export function useCopiedCell() {
  const [copied, setCopied] = useState<string | null>(null);
  useEffect(() => {
    if (copied === null) return;
    const timer = window.setTimeout(() => setCopied(null), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);
  return [copied, setCopied] as const;
}
