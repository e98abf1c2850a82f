import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Select } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { IconDatabase } from '@tabler/icons-react';
import type { TableListItem } from '#common/contract/sql.ts';
import { encodeSegment, linksAllow, tablePath } from '#common/links.ts';
import { useDatabases } from '#web/api/sql/databases.ts';
import { tablesQueryOptions } from '#web/api/sql/tables.ts';
import { useSession } from '#web/session/session-context.ts';

/*
 * The header's Database dropdown (spec 001 §2) and the account menu's way into the browser. This file is part of
 * the shell (the header imports it on every page), so it stays small: the browser's own code loads with its route.
 */

/** Spec 001 §2: the dropdown shows on the browser's and the administration's pages only. */
export const showsDatabaseSelect = (pathname: string) =>
  pathname.startsWith('/db/') || pathname.startsWith('/admin/');

/** The database a browser path names (/db/{db}/…), or null. */
export function databaseOfPath(pathname: string): string | null {
  const match = /^\/db\/([^/]+)/.exec(pathname);
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

/** The browser's address of a database: its table list, no table chosen. */
export const databasePath = (db: string) => `/db/${encodeSegment(db)}`;

/** Whether the links can show any database at all (spec 000 §6: a link of everything, or one under /db/). */
export const linksMayShowDatabases = (links: readonly string[]) =>
  links.some((link) => link === '*' || link === '/*' || link.startsWith('/db/'));

/** The links of the signed-in person ([] when signed out). */
function useLinks(): readonly string[] {
  const { status, verification } = useSession();
  return status === 'signedIn' && verification ? verification.links : [];
}

/** The databases of the signed-in person (only asked for when their links can show one). */
function useOwnDatabases(wanted: boolean) {
  const { status, verification } = useSession();
  const allowed =
    status === 'signedIn' &&
    verification !== null &&
    (verification.user.isAdmin || linksMayShowDatabases(verification.links));
  return useDatabases(wanted && allowed);
}

/**
 * Where the browser opens a database for this person: /db/{db} when their links allow that page; otherwise (links
 * to single tables or to a schema's tables only, which show the database but not its page) the first table they
 * may browse, from the table list the API filtered by their links. null: not known yet, or no table at all.
 */
export function browserEntryPath(
  links: readonly string[],
  db: string,
  tables: readonly TableListItem[] | undefined,
): string | null {
  const root = databasePath(db);
  if (linksAllow(links, root)) return root;
  const first = tables?.[0];
  return first ? tablePath(db, first.schema, first.name) : null;
}

/** The browser's entry for the person's first database, or null when they have none: the account menu's
 * "Databases" entry (without it a person who is not an administrator lands on /account with no way in). */
export function useDatabasesEntry(): string | null {
  const links = useLinks();
  const { data } = useOwnDatabases(true);
  const first = data?.[0]?.name;
  const needsTables = first !== undefined && !linksAllow(links, databasePath(first));
  const tables = useQuery({ ...tablesQueryOptions(first ?? ''), enabled: needsTables });
  return first === undefined ? null : browserEntryPath(links, first, tables.data);
}

/**
 * The Database dropdown: every database the person's links show; choosing one clears the table and goes to
 * /db/{db} (or, when the links allow only some of its tables and not that page, to the first of them). On the
 * administration's pages it shows the database last browsed (the header outlives the pages).
 */
export function DatabaseSelect({
  onChosen,
  fullWidth = false,
}: {
  onChosen?: () => void;
  fullWidth?: boolean;
}) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const links = useLinks();
  const shown = showsDatabaseSelect(pathname);
  const { data } = useOwnDatabases(shown);
  const current = databaseOfPath(pathname);
  const [last, setLast] = useState<string | null>(current);
  if (current !== null && current !== last) setLast(current);

  const openDatabase = async (db: string) => {
    const root = databasePath(db);
    if (linksAllow(links, root)) return navigate(root);
    // Links to some tables only: the first of them (the list tells the browser's own toast if it fails).
    const tables = await queryClient.fetchQuery(tablesQueryOptions(db)).catch(() => undefined);
    return navigate(browserEntryPath(links, db, tables) ?? root);
  };

  if (!shown || !data || data.length === 0) return null;
  const names = data.map((database) => database.name);
  const chosen = current ?? last;

  return (
    <Select
      aria-label="Database"
      placeholder="Database"
      data={names}
      value={chosen !== null && names.includes(chosen) ? chosen : null}
      onChange={(db) => {
        if (db === null) return;
        onChosen?.();
        void openDatabase(db);
      }}
      allowDeselect={false}
      searchable={names.length > 7}
      nothingFoundMessage="No database matches"
      // Beside the menu bar on a tablet there is room for the name only; from 992 px the icon too.
      leftSection={fullWidth ? <IconDatabase size={16} aria-hidden="true" /> : undefined}
      w={fullWidth ? '100%' : { base: 112, md: 150, lg: 190 }}
      comboboxProps={{ width: 'max-content', position: 'bottom-end' }}
      maxDropdownHeight={320}
    />
  );
}
