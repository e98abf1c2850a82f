import {
  IconDatabase,
  IconLogout,
  IconShieldLock,
  IconUserCircle,
  type TablerIcon,
} from '@tabler/icons-react';
import { ACCOUNT_PATH, ADMIN_HOME_PATH } from '#web/session/landing.ts';
import { LOGOUT_PATH } from '#web/session/session-provider.tsx';

export interface AccountLink {
  label: string;
  to: string;
  icon: TablerIcon;
}

/**
 * The account menu's entries (spec 001 §2), the same in the header's menu and the mobile drawer: Admin only for an
 * administrator, Databases when the person has one (the browser at their first database: DatabaseSelect's
 * useDatabasesEntry), then My Account and Logout (the logout page ends the session on the server, then here).
 */
export function accountLinks(user: { isAdmin: boolean }, databasesPath: string | null = null): AccountLink[] {
  return [
    ...(user.isAdmin ? [{ label: 'Admin', to: ADMIN_HOME_PATH, icon: IconShieldLock }] : []),
    ...(databasesPath ? [{ label: 'Databases', to: databasesPath, icon: IconDatabase }] : []),
    { label: 'My Account', to: ACCOUNT_PATH, icon: IconUserCircle },
    { label: 'Logout', to: LOGOUT_PATH, icon: IconLogout },
  ];
}
