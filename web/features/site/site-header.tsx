import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Box, Burger, Button, Divider, Drawer, Group, Menu, NavLink, Stack, Text } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconChevronDown, IconLogin, IconUser } from '@tabler/icons-react';
import { MOBILE_BREAKPOINT_PX, MOBILE_MENU_WIDTH, OFFCANVAS_DELAY_MS, OFFCANVAS_MS } from '#common/limits.ts';
import type { Verification } from '#common/contract/account.ts';
import { HOME_PATH, LOGIN_PATH } from '#web/content/site.ts';
import { useSession } from '#web/session/session-context.ts';
import { usePopup } from '#web/ui/popups.ts';
import { Wordmark } from '#web/ui/wordmark.tsx';
import { DatabaseSelect, useDatabasesEntry } from '#web/features/browser/database-select.tsx';
import { accountLinks } from '#web/features/site/account-links.ts';
import { AccountMenu } from '#web/features/site/account-menu.tsx';
import { ColorSchemeSwitch } from '#web/features/site/color-scheme-switch.tsx';
import { isActiveEntry, menuEntries } from '#web/features/site/site-navigation.ts';
import type { MenuEntry } from '#web/features/site/site-navigation.ts';
import classes from './site-header.module.css';

type User = Verification['user'];

/**
 * The fixed header (spec 001 §2): the logo going home, the menu, the light/dark switch, and Login when signed out or
 * the username with the account menu when signed in; below the mobile breakpoint a burger opens a drawer with all of
 * these.
 */
export function SiteHeader() {
  const { pathname } = useLocation();
  const { status, verification } = useSession();
  const user = status === 'signedIn' ? (verification?.user ?? null) : null;
  const [opened, { toggle, close }] = useDisclosure(false);
  // Leaving the session closes every popup, the drawer included.
  usePopup(opened, close);
  // The drawer only exists on small screens: widening the window past the breakpoint hides it.
  const isMobile = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT_PX - 0.02}px)`);

  return (
    <Group h="100%" px={{ base: 'md', sm: 'xl' }} justify="space-between" wrap="nowrap" gap="sm">
      <Box component={Link} to={HOME_PATH} aria-label="DBUI" style={{ textDecoration: 'none' }}>
        <Wordmark compact />
      </Box>

      <Group
        component="nav"
        aria-label="Main"
        gap={2}
        wrap="nowrap"
        visibleFrom="xs"
        className={classes.menu}
      >
        {menuEntries.map((entry) => (
          <DesktopEntry key={entry.label} entry={entry} active={isActiveEntry(entry, pathname)} />
        ))}
      </Group>

      <Group gap="xs" wrap="nowrap" visibleFrom="xs" style={{ flexShrink: 0 }}>
        <DatabaseSelect />
        <ColorSchemeSwitch variant="icon" />
        {user ? (
          <AccountMenu user={user} />
        ) : (
          <Button component={Link} to={LOGIN_PATH} px={{ base: 'sm', md: 'lg' }}>
            Login
          </Button>
        )}
      </Group>

      <Burger
        opened={opened}
        onClick={toggle}
        hiddenFrom="xs"
        aria-label={opened ? 'Close menu' : 'Open menu'}
        aria-expanded={opened}
      />
      <Drawer.Root
        opened={opened && isMobile === true}
        onClose={close}
        position="right"
        size={MOBILE_MENU_WIDTH}
        transitionProps={{ duration: OFFCANVAS_MS, enterDelay: OFFCANVAS_DELAY_MS }}
      >
        <Drawer.Overlay />
        <Drawer.Content>
          {/* A div, not the default <header>: the page has one banner landmark, the site header. */}
          <Drawer.Header component="div">
            <Drawer.Title fw={600}>Menu</Drawer.Title>
            <Drawer.CloseButton aria-label="Close menu" />
          </Drawer.Header>
          <Drawer.Body>
            <Stack component="nav" aria-label="Mobile" gap={4}>
              <DatabaseSelect fullWidth onChosen={close} />
              {menuEntries.map((entry) => (
                <MobileEntry key={entry.label} entry={entry} pathname={pathname} onNavigate={close} />
              ))}
              <Divider my="sm" />
              {user ? (
                <MobileAccount user={user} pathname={pathname} onNavigate={close} />
              ) : (
                <Button
                  component={Link}
                  to={LOGIN_PATH}
                  onClick={close}
                  fullWidth
                  leftSection={<IconLogin size={18} />}
                >
                  Login
                </Button>
              )}
              <Divider my="sm" />
              <Box px="sm">
                <ColorSchemeSwitch variant="row" />
              </Box>
            </Stack>
          </Drawer.Body>
        </Drawer.Content>
      </Drawer.Root>
    </Group>
  );
}

function DesktopEntry({ entry, active }: { entry: MenuEntry; active: boolean }) {
  // The padding comes from the menu's stylesheet: narrow on tablets, normal on larger screens.
  const spacing = { fw: 500, vars: () => ({ root: { '--button-padding-x': 'var(--site-menu-padding)' } }) };
  const look = active
    ? { variant: 'light', ...spacing }
    : { variant: 'subtle', color: 'gray', c: 'var(--site-menu-text)', ...spacing };
  if (entry.kind === 'link') {
    return (
      <Button component={Link} to={entry.to} {...look} aria-current={active ? 'page' : undefined}>
        {entry.label}
      </Button>
    );
  }
  return (
    <Menu
      trigger="click-hover"
      openDelay={50}
      closeDelay={150}
      position="bottom-start"
      offset={4}
      shadow="md"
      // Mantine's focus placeholder is a child a menu may not have (axe: aria-required-children); with the items
      // focusable instead, opening moves focus to the first item and the arrow keys go on from there.
      withInitialFocusPlaceholder={false}
      menuItemTabIndex={0}
    >
      <Menu.Target>
        <Button {...look} rightSection={<IconChevronDown size={14} aria-hidden="true" />}>
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

function MobileEntry({
  entry,
  pathname,
  onNavigate,
}: {
  entry: MenuEntry;
  pathname: string;
  onNavigate: () => void;
}) {
  if (entry.kind === 'link') {
    return (
      <NavLink
        component={Link}
        to={entry.to}
        label={entry.label}
        active={pathname === entry.to}
        onClick={onNavigate}
      />
    );
  }
  return <MobileGroup entry={entry} pathname={pathname} onNavigate={onNavigate} />;
}

function MobileGroup({
  entry,
  pathname,
  onNavigate,
}: {
  entry: Extract<MenuEntry, { kind: 'group' }>;
  pathname: string;
  onNavigate: () => void;
}) {
  const [expanded, setExpanded] = useState(() => isActiveEntry(entry, pathname));
  return (
    <NavLink
      component="button"
      type="button"
      label={entry.label}
      opened={expanded}
      onChange={setExpanded}
      aria-expanded={expanded}
      childrenOffset="md"
    >
      {entry.links.map((link) => (
        <NavLink
          key={link.to}
          component={Link}
          to={link.to}
          label={link.label}
          active={pathname === link.to}
          onClick={onNavigate}
        />
      ))}
    </NavLink>
  );
}

/** The drawer's account part when signed in: who is signed in, then the account menu's entries. */
function MobileAccount({
  user,
  pathname,
  onNavigate,
}: {
  user: User;
  pathname: string;
  onNavigate: () => void;
}) {
  const databasesPath = useDatabasesEntry();
  return (
    <Stack gap={4} aria-label="Account" role="group">
      <Group gap="xs" px="sm" py={6} wrap="nowrap">
        <IconUser size={18} aria-hidden="true" style={{ flexShrink: 0 }} />
        <Text fw={600} truncate="end" title={user.username}>
          {user.username}
        </Text>
      </Group>
      {accountLinks(user, databasesPath).map(({ label, to, icon: Icon }) => (
        <NavLink
          key={to}
          component={Link}
          to={to}
          label={label}
          active={pathname === to}
          leftSection={<Icon size={18} aria-hidden="true" />}
          onClick={onNavigate}
        />
      ))}
    </Stack>
  );
}
