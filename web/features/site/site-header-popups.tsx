import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { Button, Menu, Tooltip, type ButtonProps } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import type { MenuEntry } from '#web/features/site/site-navigation.ts';

/*
 * The header's popups, loaded on the first sign of use (decision 0033): Mantine's Menu and Tooltip bring floating-ui,
 * a focus trap and transitions, which a first visit's page does not need to show. site-header.tsx renders the same
 * buttons until then.
 */

export { Tooltip as HeaderTooltip };

/**
 * A dropdown of the menu bar (Services, Products): opens on hover or click, the arrow keys move between its links.
 * `defaultOpened` opens it at once (the pointer or a click reached the stand-in button while this loaded);
 * `takeFocus` moves the focus to its button (the stand-in had it).
 */
export function GroupMenu({
  entry,
  look,
  defaultOpened,
  takeFocus,
}: {
  entry: Extract<MenuEntry, { kind: 'group' }>;
  look: ButtonProps;
  defaultOpened: boolean;
  takeFocus: boolean;
}) {
  const target = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (takeFocus) target.current?.focus();
  }, [takeFocus]);
  return (
    <Menu
      trigger="click-hover"
      openDelay={50}
      closeDelay={150}
      position="bottom-start"
      offset={4}
      shadow="md"
      defaultOpened={defaultOpened}
      // Mantine's focus placeholder is a child a menu may not have (axe: aria-required-children); with the items
      // focusable instead, opening moves focus to the first item and the arrow keys go on from there.
      withInitialFocusPlaceholder={false}
      menuItemTabIndex={0}
    >
      <Menu.Target>
        <Button ref={target} {...look} rightSection={<IconChevronDown size={14} aria-hidden="true" />}>
          {entry.label}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {entry.links.map((link) => (
          <Menu.Item key={link.to} component={Link} to={link.to}>
            {link.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
