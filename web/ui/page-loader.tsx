import { Center, Loader, Stack, Text } from '@mantine/core';

/** Spec 001 §9: the loader's header size defaults to 4; 0 to 6 are valid. */
export const LOADER_HEADER_SIZE_DEFAULT = 4;
const LOADER_HEADER_SIZE_MAX = 6;
/** The font size of each header size: 1 to 6 as the headings h1 to h6 of the theme. */
const headerFontSizes = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] as const;

/** The header size in force: a whole number from 0 to 6 (rounded and clamped; anything else is the default). */
export function loaderHeaderSize(size: number | undefined): number {
  if (size === undefined || !Number.isFinite(size)) return LOADER_HEADER_SIZE_DEFAULT;
  return Math.min(LOADER_HEADER_SIZE_MAX, Math.max(0, Math.round(size)));
}

/**
 * Shown in the main area while a page's code or data loads: a spinner with the label under it as a header of size
 * `headerSize` (spec 001 §9: 1 is the largest, as h1, 6 the smallest; 0 shows no text, the label then only names the
 * status for screen readers). Drawn in a heading's size, not as a heading: a wait is no section of the page.
 */
export function PageLoader({ label = 'Loading', headerSize }: { label?: string; headerSize?: number }) {
  const size = loaderHeaderSize(headerSize);
  return (
    <Center py={96} role="status" aria-label={label}>
      <Stack align="center" gap="sm">
        <Loader />
        {size > 0 && (
          <Text
            aria-hidden="true"
            fw={600}
            c="dimmed"
            data-header-size={size}
            style={{ fontSize: `var(--mantine-${headerFontSizes[size - 1]}-font-size)` }}
          >
            {/\.\.\.$|…$/.test(label) ? label : `${label}…`}
          </Text>
        )}
      </Stack>
    </Center>
  );
}
