import { createTheme } from '@mantine/core';
import { MOBILE_BREAKPOINT_PX } from '#common/limits.ts';

/** The one Mantine theme of the app: Mantine's defaults with an indigo accent and softer corners. The `xs`
 * breakpoint is the spec's mobile breakpoint, so `hiddenFrom="xs"` / `visibleFrom="xs"` follow it. */
export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  fontFamily:
    "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif, 'Apple Color Emoji', 'Segoe UI Emoji'",
  headings: { fontWeight: '700' },
  breakpoints: { xs: `${MOBILE_BREAKPOINT_PX / 16}em` },
});
