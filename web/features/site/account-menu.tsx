import { useState } from 'react';
import { Link } from 'react-router';
import { Box, Button, Menu, Text } from '@mantine/core';
import { IconChevronDown, IconUser } from '@tabler/icons-react';
import { ACCOUNT_MENU_WIDTH } from '#common/limits.ts';
import { useDatabasesEntry } from '#web/features/browser/database-select.tsx';
import { accountLinks } from '#web/features/site/account-links.ts';
import { usePopup } from '#web/ui/popups.ts';

/**
 * The signed-in person in the header (spec 001 §2): the username with a user icon opening the account menu, 10rem
 * wide (§9). Each entry closes the menu, as do a click outside and Escape; the arrow keys move between entries.
 */
export function AccountMenu({
  user,
  defaultOpened = false,
}: {
  user: { username: string; isAdmin: boolean };
  /** Open at once: the header's stand-in button was clicked while this loaded (site-header.tsx). */
  defaultOpened?: boolean;
}) {
  const [opened, setOpened] = useState(defaultOpened);
  const databasesPath = useDatabasesEntry();
  // Leaving the session closes every popup, this menu included.
  usePopup(opened, () => setOpened(false));

  return (
    <Menu
      opened={opened}
      onChange={setOpened}
      width={ACCOUNT_MENU_WIDTH}
      position="bottom-end"
      offset={6}
      shadow="md"
      // The header is fixed, so its button never scrolls away: nothing to hide the menu for.
      hideDetached={false}
      // Mantine's focus placeholder is a child a menu may not have (axe: aria-required-children); with the items
      // focusable instead, opening moves focus to the first item and the arrow keys go on from there.
      withInitialFocusPlaceholder={false}
      menuItemTabIndex={0}
    >
      <Menu.Target>
        <Button
          variant="subtle"
          color="gray"
          c="var(--mantine-color-text)"
          px="xs"
          // The name is the username at every width, also where only the icon shows.
          aria-label={user.username}
          styles={{ label: { minWidth: 0, gap: 6 } }}
        >
          <IconUser size={18} aria-hidden="true" style={{ flexShrink: 0 }} />
          {/* Below 992 px the menu bar leaves no room for the name: the icon alone opens the menu, whose first
              line then says who is signed in. A long username is cut short. */}
          <Text span inherit truncate="end" maw="12rem" visibleFrom="md">
            {user.username}
          </Text>
          <Box component="span" visibleFrom="md" style={{ display: 'inline-flex' }}>
            <IconChevronDown size={14} aria-hidden="true" />
          </Box>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label hiddenFrom="md" fz="sm" fw={600} c="var(--mantine-color-text)">
          <Text span inherit truncate="end" display="block">
            {user.username}
          </Text>
        </Menu.Label>
        {accountLinks(user, databasesPath).map(({ label, to, icon: Icon }) => (
          <Menu.Item key={to} component={Link} to={to} leftSection={<Icon size={16} aria-hidden="true" />}>
            {label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
