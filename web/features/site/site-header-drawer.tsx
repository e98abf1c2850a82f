import { useState } from 'react';
import { Link } from 'react-router';
import { Box, Button, Divider, Drawer, Group, NavLink, Stack, Switch, Text } from '@mantine/core';
import { IconLogin, IconMoon, IconSun, IconUser } from '@tabler/icons-react';
import { MOBILE_MENU_WIDTH, OFFCANVAS_DELAY_MS, OFFCANVAS_MS } from '#common/limits.ts';
import type { Verification } from '#common/contract/account.ts';
import { LOGIN_PATH } from '#common/content/site.ts';
import { DatabaseSelect, useDatabasesEntry } from '#web/features/browser/database-select.tsx';
import { accountLinks } from '#web/features/site/account-links.ts';
import { COLOR_SCHEME_LABEL, useColorSchemeToggle } from '#web/features/site/color-scheme-switch.tsx';
import { isActiveEntry, menuEntries } from '#web/features/site/site-navigation.ts';
import type { MenuEntry } from '#web/features/site/site-navigation.ts';

type User = Verification['user'];

/**
 * The mobile menu (spec 001 §2): a drawer 75% wide from the right with the database dropdown, the menu, Login or the
 * account's entries, and the light/dark switch. Loaded when the burger is first pressed (decision 0033: a drawer,
 * its focus trap and scroll lock are no part of a first visit's page).
 */
export function SiteHeaderDrawer({
  opened,
  onClose,
  user,
  pathname,
}: {
  opened: boolean;
  onClose: () => void;
  user: User | null;
  pathname: string;
}) {
  return (
    <Drawer.Root
      opened={opened}
      onClose={onClose}
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
            {user && <DatabaseSelect fullWidth onChosen={onClose} />}
            {menuEntries.map((entry) => (
              <MobileEntry key={entry.label} entry={entry} pathname={pathname} onNavigate={onClose} />
            ))}
            <Divider my="sm" />
            {user ? (
              <MobileAccount user={user} pathname={pathname} onNavigate={onClose} />
            ) : (
              <Button
                component={Link}
                to={LOGIN_PATH}
                onClick={onClose}
                fullWidth
                leftSection={<IconLogin size={18} />}
              >
                Login
              </Button>
            )}
            <Divider my="sm" />
            <Box px="sm">
              <ColorSchemeRow />
            </Box>
          </Stack>
        </Drawer.Body>
      </Drawer.Content>
    </Drawer.Root>
  );
}

/** The drawer's labelled light/dark switch (the header's own is an icon button). */
function ColorSchemeRow() {
  const { dark, toggle } = useColorSchemeToggle();
  return (
    <Switch
      label={COLOR_SCHEME_LABEL}
      checked={dark}
      onChange={toggle}
      size="md"
      onLabel={<IconMoon size={14} aria-hidden="true" />}
      offLabel={<IconSun size={14} aria-hidden="true" />}
    />
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
