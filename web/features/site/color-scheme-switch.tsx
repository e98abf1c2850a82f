import { ActionIcon, Switch, Tooltip, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';

const LABEL = 'Dark theme';

/**
 * Light or dark: the system's preference until the person chooses here; the choice is remembered in this browser
 * (web/app-providers.tsx keeps it in localStorage). `icon` is the header's button (pressed while dark), `row` the
 * mobile drawer's labelled switch.
 */
export function ColorSchemeSwitch({ variant }: { variant: 'icon' | 'row' }) {
  const { setColorScheme } = useMantineColorScheme();
  // What is shown now, the system's preference resolved; read at once so the first render is already right.
  const shown = useComputedColorScheme('light', { getInitialValueInEffect: false });
  const dark = shown === 'dark';
  const toggle = () => setColorScheme(dark ? 'light' : 'dark');

  if (variant === 'row') {
    return (
      <Switch
        label={LABEL}
        checked={dark}
        onChange={toggle}
        size="md"
        onLabel={<IconMoon size={14} aria-hidden="true" />}
        offLabel={<IconSun size={14} aria-hidden="true" />}
      />
    );
  }
  return (
    <Tooltip label={dark ? 'Use the light theme' : 'Use the dark theme'} openDelay={400}>
      <ActionIcon
        variant="default"
        size="lg"
        radius="md"
        aria-label={LABEL}
        aria-pressed={dark}
        onClick={toggle}
      >
        {dark ? <IconSun size={18} aria-hidden="true" /> : <IconMoon size={18} aria-hidden="true" />}
      </ActionIcon>
    </Tooltip>
  );
}
