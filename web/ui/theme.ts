import {
  createTheme,
  defaultVariantColorsResolver,
  type AlertProps,
  type CSSVariablesResolver,
  type MantineTheme,
  type ModalProps,
  type NotificationProps,
  type VariantColorsResolver,
} from '@mantine/core';
import { MODAL_FADE_MS, MOBILE_BREAKPOINT_PX } from '#common/limits.ts';

/**
 * Two of Mantine's variants fall below WCAG AA's 4.5:1 for text:
 * - white on a filled red button in shade 7 is 3.8:1 (Delete buttons): filled red takes shade 9 (5.5:1) and 8 on
 *   hover (4.5:1), in both schemes;
 * - the light variant (badges, light buttons) writes a colour's own shade on its pale tint, and green, yellow,
 *   orange, teal and others fall below it in the light scheme: there the text takes the colour's darkest shade mixed
 *   with black, while the dark scheme keeps Mantine's.
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  const named = input.color && /^[a-z]+$/.test(input.color) && input.color !== 'indigo' ? input.color : null;
  if (input.variant === 'light' && named) {
    return {
      ...colors,
      color: `light-dark(color-mix(in srgb, var(--mantine-color-${named}-9) 55%, black), ${colors.color})`,
    };
  }
  if (input.variant === 'filled' && input.color === 'red') {
    return {
      ...colors,
      background: 'var(--mantine-color-red-9)',
      hover: 'var(--mantine-color-red-8)',
    };
  }
  return colors;
};

/** The one Mantine theme of the app: Mantine's defaults with an indigo accent and softer corners. The `xs`
 * breakpoint is the spec's mobile breakpoint, so `hiddenFrom="xs"` / `visibleFrom="xs"` follow it. */
export const theme = createTheme({
  primaryColor: 'indigo',
  // Shade 7 in light (white on indigo 6 is 4.0:1, below WCAG AA's 4.5:1; on 7 it is 4.7:1), 8 in dark.
  primaryShade: { light: 7, dark: 8 },
  variantColorResolver,
  defaultRadius: 'md',
  fontFamily:
    "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif, 'Apple Color Emoji', 'Segoe UI Emoji'",
  headings: { fontWeight: '700' },
  breakpoints: { xs: `${MOBILE_BREAKPOINT_PX / 16}em` },
  // Plain settings rather than Alert.extend() and the like: .extend() only types its argument, and importing Modal
  // for it put Modal, its focus trap and scroll lock in every page's first chunk (decision 0033).
  components: {
    // A light alert's title is in its colour's light shade on its pale background (green 7 on green 0 is 2.7:1,
    // below WCAG AA): the title takes the page's strongest text colour, the icon and background keep the colour.
    Alert: {
      styles: (_theme: MantineTheme, props: AlertProps) =>
        props.variant === undefined || props.variant === 'light'
          ? { title: { color: 'var(--mantine-color-bright)' } }
          : {},
    },
    // Spec 000/001 §9: every modal fades in and out over 300 ms.
    Modal: {
      defaultProps: {
        transitionProps: { transition: 'fade', duration: MODAL_FADE_MS },
      } satisfies Partial<ModalProps>,
    },
    // A toast's close button is an icon only: without a name, screen readers say just "button" (axe button-name).
    Notification: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } satisfies Partial<NotificationProps>,
    },
  },
});

/**
 * Mantine's dimmed text (gray 6 on white, 3.3:1; dark 2 on dark 7) falls below WCAG AA's 4.5:1 for small text: one
 * shade stronger in each scheme keeps hints and captions readable.
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': t.colors.gray[7] ?? '#495057',
    // Field messages: Mantine's red 6 on white is 3.3:1 and red 8 on the dark body 3.4:1; red 9 and red 4 pass AA.
    '--mantine-color-error': t.colors.red[9] ?? '#c92a2a',
  },
  dark: {
    '--mantine-color-dimmed': t.colors.dark[1] ?? '#b8b8b8',
    '--mantine-color-error': t.colors.red[4] ?? '#ff8787',
  },
});
