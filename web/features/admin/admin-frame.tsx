import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { Box, Button, Container, Group, Stack, Title } from '@mantine/core';
import {
  IconChartBar,
  IconClipboardList,
  IconHome,
  IconMail,
  IconMessageChatbot,
  IconShieldLock,
  IconUsers,
} from '@tabler/icons-react';
import classes from './admin-frame.module.css';

/** The admin area's pages, in menu order. */
export const adminLinks = [
  { label: 'Home', to: '/admin/home', icon: IconHome },
  { label: 'Users', to: '/admin/users', icon: IconUsers },
  { label: 'Roles', to: '/admin/roles', icon: IconShieldLock },
  { label: 'Audit', to: '/admin/audit', icon: IconClipboardList },
  { label: 'Messages', to: '/admin/messages', icon: IconMail },
  { label: 'Analytics', to: '/admin/analytics', icon: IconChartBar },
  { label: 'Chats', to: '/admin/chats', icon: IconMessageChatbot },
] as const;

/** The current menu entry: the page itself or one below it (a user's page is under Users). */
function isCurrent(to: string, pathname: string): boolean {
  return pathname === to || pathname.startsWith(`${to}/`);
}

export interface AdminFrameProps {
  /** The page's h1. */
  title: string;
  /** Buttons beside the title (wrap below it on phones). */
  actions?: ReactNode;
  children: ReactNode;
}

/**
 * Every admin page's frame: the admin menu (a `nav` named "Admin" with Home, Users, Roles, Audit, Messages, Analytics and Chats, the current one
 * marked aria-current="page"; one row, three a row on phones, never hidden), the page's h1 title with the
 * page's actions beside it, then the page.
 */
export function AdminFrame({ title, actions, children }: AdminFrameProps) {
  const { pathname } = useLocation();
  return (
    <Container size="xl" py="md" px={{ base: 'sm', sm: 'md' }}>
      <Stack gap="md">
        <Group component="nav" aria-label="Admin" gap={4} className={classes.menu}>
          {adminLinks.map(({ label, to, icon: Icon }) => {
            const current = isCurrent(to, pathname);
            return (
              <Button
                key={to}
                component={Link}
                to={to}
                size="sm"
                classNames={{ root: classes.link, section: classes.icon }}
                variant={current ? 'light' : 'subtle'}
                color={current ? undefined : 'gray'}
                leftSection={<Icon size={16} aria-hidden="true" />}
                aria-current={current ? 'page' : undefined}
              >
                {label}
              </Button>
            );
          })}
        </Group>
        <Group justify="space-between" align="center" gap="sm">
          <Title order={1} style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
            {title}
          </Title>
          {actions ? (
            <Group gap="xs" wrap="wrap">
              {actions}
            </Group>
          ) : null}
        </Group>
        <Box>{children}</Box>
      </Stack>
    </Container>
  );
}
