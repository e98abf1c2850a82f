import { useDatabasesEntry } from '#web/features/browser/database-select.tsx';

/** Asks for what the account menu shows (its Databases entry) while the header's stand-in button waits for the first
 * click (site-header.tsx), so the menu opens complete; renders nothing. A file of its own: the menu's code (Mantine's
 * Menu) loads only when the person reaches for it (decision 0056). */
export function AccountMenuData(): null {
  useDatabasesEntry();
  return null;
}
