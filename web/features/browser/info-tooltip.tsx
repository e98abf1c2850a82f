/*
 * Mantine's Tooltip alone, for the table card's information button: imported lazily (lazy-pieces.tsx) when the
 * pointer or the focus first reaches the button, well within the tooltip's own delay, so its code is not part of a
 * first visit of the browser (decision 0056).
 */
export { Tooltip as InfoTooltip } from '@mantine/core';
