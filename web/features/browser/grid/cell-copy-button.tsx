import { useEffect, useState } from 'react';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import classes from './data-grid.module.css';

/** Texts of the copy action (our own sentences; the spec has none for it). */
export const copyMessages = {
  copy: (column: string) => `Copy ${column}`,
  copied: (column: string) => `${column} copied.`,
  failed: 'The browser did not allow copying.',
} as const;

/** How long the button shows its check mark after a copy. */
const COPIED_MS = 1500;

/** Puts text on the clipboard; where the Clipboard API is missing (plain http), through a hidden text area. */
async function writeClipboard(text: string): Promise<void> {
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

/**
 * A plain button (not Mantine's ActionIcon: a page has up to 800 of them, and each ActionIcon costs a theme and
 * styles lookup) that copies one cell's value, shown on hover of its cell or on its own focus; a toast says it. It
 * stops its click so the row does not open. `focusable` puts it in the tab order (the grid's active row only).
 */
export function CellCopyButton({
  column,
  text,
  focusable,
  className,
}: {
  column: string;
  text: string;
  focusable: boolean;
  className?: string;
}) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);

  const copy = () => {
    writeClipboard(text).then(
      () => {
        setCopied(true);
        notifications.show({ color: 'green', message: copyMessages.copied(column) });
      },
      () => notifications.show({ color: 'red', message: copyMessages.failed }),
    );
  };

  return (
    <button
      type="button"
      className={className ? `${classes.copyButton} ${className}` : classes.copyButton}
      aria-label={copyMessages.copy(column)}
      tabIndex={focusable ? 0 : -1}
      data-copied={copied || undefined}
      onClick={(event) => {
        event.stopPropagation();
        copy();
      }}
      onKeyDown={(event) => {
        // Enter and Space press the button; they must not reach the row (which opens on Enter).
        if (event.key === 'Enter' || event.key === ' ') event.stopPropagation();
      }}
    >
      {copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
    </button>
  );
}
