import { IconLayoutSidebarRightExpand } from '@tabler/icons-react';
import gridClasses from '#web/features/browser/grid/data-grid.module.css';
import classes from './value-panel.module.css';

/** The button's sentence (our own: the spec has none for it). */
export const showValueMessages = {
  show: (column: string) => `Show whole value of ${column}`,
} as const;

let panelAsked = false;
/** Starts loading the value panel's code (once), on the first hover of a cell's button. */
export function prefetchValuePanel(): void {
  if (panelAsked) return;
  panelAsked = true;
  void import('./value-panel.tsx').catch(() => (panelAsked = false));
}

/**
 * A cell's "Show whole value" button, beside its copy button and like it (cell-copy-button.tsx): a plain button
 * shown on hover of its cell or while the cell has the keyboard focus, never a tab stop (keyboard users press
 * Shift+Enter on the cell), its click kept from the row (which would open the editor).
 */
export function ShowValueButton({ column, onShow }: { column: string; onShow: () => void }) {
  return (
    <button
      type="button"
      className={`${gridClasses.copyButton} ${gridClasses.copy} ${classes.show}`}
      aria-label={showValueMessages.show(column)}
      title={showValueMessages.show(column)}
      tabIndex={-1}
      onPointerEnter={prefetchValuePanel}
      onClick={(event) => {
        event.stopPropagation();
        onShow();
      }}
      onKeyDown={(event) => {
        if (event.key === 'Enter' || event.key === ' ') event.stopPropagation();
      }}
    >
      <IconLayoutSidebarRightExpand size={14} aria-hidden />
    </button>
  );
}
