import { lazy, startTransition, Suspense, useState, type ComponentProps, type KeyboardEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { Box, Burger, Button, Group, Text, type ButtonProps } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconChevronDown, IconUser } from '@tabler/icons-react';
import { MOBILE_BREAKPOINT_PX } from '#common/limits.ts';
import { HOME_PATH, LOGIN_PATH } from '#common/content/site.ts';
import { withQueriesOf } from '#web/api/queries.tsx';
import type { DatabaseSelect as DatabaseSelectComponent } from '#web/features/browser/database-select.tsx';
import type { AccountMenu as AccountMenuComponent } from '#web/features/site/account-menu.tsx';
import type { SiteHeaderDrawer as SiteHeaderDrawerComponent } from '#web/features/site/site-header-drawer.tsx';
import { useSession } from '#web/session/session-context.ts';
import { usePopup } from '#web/ui/popups.ts';
import { Wordmark } from '#web/ui/wordmark.tsx';
import { ColorSchemeSwitch } from '#web/features/site/color-scheme-switch.tsx';
import { isActiveEntry, menuEntries } from '#web/features/site/site-navigation.ts';
import type { MenuEntry } from '#web/features/site/site-navigation.ts';
import classes from './site-header.module.css';

/*
 * Decision 0033: what a first visit shows is in this file; the popups load when needed. The dropdowns' menus and the
 * tooltip on the first sign of use (site-header-popups.tsx), the drawer when the burger is first pressed, and what
 * only a signed-in person sees (the account menu, the database dropdown) when someone is signed in.
 */
const GroupMenu = lazy(() =>
  import('#web/features/site/site-header-popups.tsx').then((m) => ({ default: m.GroupMenu })),
);
// These three ask the API (the person's databases): they load with TanStack Query's client (web/api/queries.tsx).
const SiteHeaderDrawer = withQueriesOf<ComponentProps<typeof SiteHeaderDrawerComponent>>(() =>
  import('#web/features/site/site-header-drawer.tsx').then((m) => ({ default: m.SiteHeaderDrawer })),
);
const loadAccountMenu = () => import('#web/features/site/account-menu.tsx');
const AccountMenu = withQueriesOf<ComponentProps<typeof AccountMenuComponent>>(() =>
  loadAccountMenu().then((m) => ({ default: m.AccountMenu })),
);
const AccountMenuData = withQueriesOf<object>(() =>
  import('#web/features/site/account-menu-data.tsx').then((m) => ({ default: m.AccountMenuData })),
);
const DatabaseSelect = withQueriesOf<ComponentProps<typeof DatabaseSelectComponent>>(() =>
  import('#web/features/browser/database-select.tsx').then((m) => ({ default: m.DatabaseSelect })),
);

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
  // The drawer's code loads with the first press of the burger and stays.
  const [drawerWanted, setDrawerWanted] = useState(false);
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
        {user && (
          <Suspense fallback={null}>
            <DatabaseSelect />
          </Suspense>
        )}
        <ColorSchemeSwitch />
        {user ? (
          <LazyAccountMenu user={user} />
        ) : (
          <Button component={Link} to={LOGIN_PATH} px={{ base: 'sm', md: 'lg' }}>
            Login
          </Button>
        )}
      </Group>

      <Burger
        opened={opened}
        onClick={() => {
          setDrawerWanted(true);
          toggle();
        }}
        hiddenFrom="xs"
        aria-label={opened ? 'Close menu' : 'Open menu'}
        aria-expanded={opened}
      />
      {drawerWanted && (
        <Suspense fallback={null}>
          <SiteHeaderDrawer
            opened={opened && isMobile === true}
            onClose={close}
            user={user}
            pathname={pathname}
          />
        </Suspense>
      )}
    </Group>
  );
}

function DesktopEntry({ entry, active }: { entry: MenuEntry; active: boolean }) {
  // The padding comes from the menu's stylesheet: narrow on tablets, normal on larger screens.
  const spacing = { fw: 500, vars: () => ({ root: { '--button-padding-x': 'var(--site-menu-padding)' } }) };
  const look: ButtonProps = active
    ? { variant: 'light', ...spacing }
    : { variant: 'subtle', color: 'gray', c: 'var(--site-menu-text)', ...spacing };
  if (entry.kind === 'link') {
    return (
      <Button component={Link} to={entry.to} {...look} aria-current={active ? 'page' : undefined}>
        {entry.label}
      </Button>
    );
  }
  return <DesktopGroup entry={entry} look={look} />;
}

/** What a stand-in button saw before its popup loaded: a reason to load it, and whether to open it at once. */
interface Intent {
  open: boolean;
  focused: boolean;
}

/** Keys that open a menu from its button (Mantine's Menu: Enter and Space click it, the down arrow opens it). */
const OPENING_KEYS = new Set(['ArrowDown', 'ArrowUp']);

/**
 * A dropdown of the menu bar: until its menu's code has loaded, the same button, whose hover, focus, click or arrow
 * key loads it (and a hover or click opens it once loaded, as the menu would have).
 */
function DesktopGroup({ entry, look }: { entry: Extract<MenuEntry, { kind: 'group' }>; look: ButtonProps }) {
  const [intent, setIntent] = useState<Intent | null>(null);
  // A transition: the stand-in stays (with the focus) until the menu has loaded, then the menu replaces it at once.
  const note = (open: boolean | null, focused?: boolean) =>
    startTransition(() =>
      setIntent((now) => ({
        open: open ?? now?.open ?? false,
        focused: focused ?? now?.focused ?? false,
      })),
    );
  const standIn = (
    <Button
      {...look}
      rightSection={<IconChevronDown size={14} aria-hidden="true" />}
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerEnter={() => note(true)}
      onPointerLeave={() => note(false)}
      onFocus={() => note(null, true)}
      onBlur={() => note(null, false)}
      onClick={() => note(true)}
      onKeyDown={(event: KeyboardEvent) => {
        if (OPENING_KEYS.has(event.key)) note(true);
      }}
    >
      {entry.label}
    </Button>
  );
  return (
    <Suspense fallback={standIn}>
      {intent === null ? (
        standIn
      ) : (
        <GroupMenu entry={entry} look={look} defaultOpened={intent.open} takeFocus={intent.focused} />
      )}
    </Suspense>
  );
}

/**
 * The account menu (signed in only): what it shows (the Databases entry) loads at once, its code (Mantine's Menu) on
 * the first hover or focus of the button that stands in for it until the first click, which opens the menu (at once
 * when the code is in, else when it arrives; decision 0056). The button is not swapped while nobody asks for the
 * menu: swapped as the code arrived, a click pressed at that moment went to a button that had left the page, and
 * nothing opened (a CI run of shell-session.spec.ts).
 */
let accountMenuAsked = false;
/** Starts loading the account menu's code (once; again after a failure). */
function prefetchAccountMenu(): void {
  if (accountMenuAsked) return;
  accountMenuAsked = true;
  void loadAccountMenu().catch(() => (accountMenuAsked = false));
}

function LazyAccountMenu({ user }: { user: { username: string; isAdmin: boolean } }) {
  const [clicked, setClicked] = useState(false);
  const standIn = (
    <Button
      variant="subtle"
      color="gray"
      c="var(--mantine-color-text)"
      px="xs"
      aria-label={user.username}
      aria-haspopup="menu"
      aria-expanded={false}
      styles={{ label: { minWidth: 0, gap: 6 } }}
      onPointerEnter={prefetchAccountMenu}
      onFocus={prefetchAccountMenu}
      onClick={() => setClicked(true)}
    >
      <IconUser size={18} aria-hidden="true" style={{ flexShrink: 0 }} />
      <Text span inherit truncate="end" maw="12rem" visibleFrom="md">
        {user.username}
      </Text>
      <Box component="span" visibleFrom="md" style={{ display: 'inline-flex' }}>
        <IconChevronDown size={14} aria-hidden="true" />
      </Box>
    </Button>
  );
  if (!clicked)
    return (
      <>
        {standIn}
        <Suspense fallback={null}>
          <AccountMenuData />
        </Suspense>
      </>
    );
  return (
    <Suspense fallback={standIn}>
      <AccountMenu user={user} defaultOpened />
    </Suspense>
  );
}
