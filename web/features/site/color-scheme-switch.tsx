import { lazy, Suspense, useRef, useState } from 'react';
import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';

/** The switch's accessible name, in the header and in the mobile drawer. */
export const COLOR_SCHEME_LABEL = 'Dark theme';

// Mantine's Tooltip brings floating-ui: it loads when the pointer or the focus first reaches the button, well within
// the tooltip's own delay (decision 0033).
const Tooltip = lazy(() =>
  import('#web/features/site/site-header-popups.tsx').then((m) => ({ default: m.HeaderTooltip })),
);

/**
 * Light or dark: the system's preference until the person chooses; the choice is remembered in this browser
 * (web/app-providers.tsx keeps it in localStorage).
 */
export function useColorSchemeToggle(): { dark: boolean; toggle: () => void } {
  const { setColorScheme } = useMantineColorScheme();
  // What is shown now, the system's preference resolved; read at once so the first render is already right.
  const shown = useComputedColorScheme('light', { getInitialValueInEffect: false });
  const dark = shown === 'dark';
  return { dark, toggle: () => setColorScheme(dark ? 'light' : 'dark') };
}

/** The header's light/dark button (pressed while dark); the mobile drawer has a labelled switch instead. */
export function ColorSchemeSwitch() {
  const { dark, toggle } = useColorSchemeToggle();
  const button = useRef<HTMLButtonElement>(null);
  const [wanted, setWanted] = useState(false);
  const want = () => setWanted(true);
  return (
    <>
      <ActionIcon
        ref={button}
        variant="default"
        size="lg"
        radius="md"
        aria-label={COLOR_SCHEME_LABEL}
        aria-pressed={dark}
        onClick={toggle}
        onPointerEnter={want}
        onFocus={want}
      >
        {dark ? <IconSun size={18} aria-hidden="true" /> : <IconMoon size={18} aria-hidden="true" />}
      </ActionIcon>
      {wanted && (
        <Suspense fallback={null}>
          <Tooltip
            target={button}
            label={dark ? 'Use the light theme' : 'Use the dark theme'}
            openDelay={400}
          />
        </Suspense>
      )}
    </>
  );
}
