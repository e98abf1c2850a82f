import { useEffect, useState } from 'react';
import {
  Badge,
  Button,
  CloseButton,
  Group,
  Loader,
  ScrollArea,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import type { RoleSummary } from '#common/contract/admin.ts';
import { SEARCH_DEBOUNCE_MS } from '#common/limits.ts';
import { adminMessages } from '#common/messages.ts';
import { useRoleList } from '#web/api/admin/roles.ts';
import classes from './roles.module.css';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

export interface RoleListProps {
  selectedId: number | null;
  /** A new role (Id 0) is being edited: no saved role is the selected one. */
  adding: boolean;
  onSelect: (id: number) => void;
  onAdd: () => void;
  /** The scrolling list's height. */
  maxHeight: string;
}

/**
 * The role list (spec 000 §2, §9): a search box (the Name filter, sent 250 ms after typing stops), Add Role, and
 * the roles 25 at a time, 25 more once the list is scrolled to its end (or Show more is pressed). Each entry is a
 * button: the name, then small badges (Built-in, Admin, N links, N users), which are also its accessible name.
 */
export function RoleList({ selectedId, adding, onSelect, onAdd, maxHeight }: RoleListProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const list = useRoleList(debounced);
  const roles = list.data?.pages.flatMap((page) => page.results) ?? [];
  const count = list.data?.pages[0]?.count ?? 0;

  const failed = list.isError;
  useEffect(() => {
    if (failed) notifications.show({ color: 'red', message: adminMessages.rolesFailed });
  }, [failed]);

  const more = () => {
    if (list.hasNextPage && !list.isFetchingNextPage) void list.fetchNextPage();
  };

  return (
    <Stack gap="xs">
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TextInput
          label="Search roles"
          placeholder="Name starts with…"
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') setSearch('');
          }}
          leftSection={<IconSearch size={16} aria-hidden="true" />}
          rightSection={
            search ? (
              <CloseButton size="sm" aria-label="Clear role search" onClick={() => setSearch('')} />
            ) : null
          }
          autoComplete="off"
          spellCheck={false}
          style={{ flex: 1 }}
        />
        <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={onAdd}>
          Add Role
        </Button>
      </Group>
      {list.data === undefined ? (
        failed ? (
          <Text size="sm" c="dimmed">
            The roles could not be read. Reload the page to try again.
          </Text>
        ) : (
          <Loader size="sm" role="status" aria-label="Loading roles" />
        )
      ) : roles.length === 0 ? (
        <Text size="sm" c="dimmed" role="status">
          {debounced === '' ? 'There are no roles yet.' : `No role name starts with “${debounced}”.`}
        </Text>
      ) : (
        <>
          <ScrollArea.Autosize mah={maxHeight} type="auto" offsetScrollbars onBottomReached={more}>
            <Stack component="ul" aria-label="Roles" gap={4} className={classes.list}>
              {roles.map((role) => (
                <li key={role.Id}>
                  <RoleEntry
                    role={role}
                    selected={!adding && role.Id === selectedId}
                    onSelect={() => onSelect(role.Id)}
                  />
                </li>
              ))}
            </Stack>
            {list.hasNextPage && (
              <Group justify="center" py="xs">
                <Button variant="subtle" size="xs" onClick={more} loading={list.isFetchingNextPage}>
                  Show more roles
                </Button>
              </Group>
            )}
          </ScrollArea.Autosize>
          <Text size="xs" c="dimmed" aria-live="polite">
            {roles.length < count
              ? `Showing ${roles.length} of ${plural(count, 'role')}`
              : plural(count, 'role')}
          </Text>
        </>
      )}
    </Stack>
  );
}

function RoleEntry({
  role,
  selected,
  onSelect,
}: {
  role: RoleSummary;
  selected: boolean;
  onSelect: () => void;
}) {
  return (
    <UnstyledButton
      className={classes.entry}
      data-selected={selected || undefined}
      aria-current={selected ? 'true' : undefined}
      onClick={onSelect}
    >
      {/* The spaces between the pieces keep the accessible name readable: "Readers 2 links 1 user". */}
      <Text component="span" fw={selected ? 700 : 500} size="sm" className={classes.name}>
        {role.Name}
      </Text>{' '}
      <span className={classes.badges}>
        {role.IsBuiltIn && (
          <>
            <Badge component="span" size="xs" tt="none" variant="light" color="gray">
              Built-in
            </Badge>{' '}
          </>
        )}
        {role.IsAdmin && (
          <>
            <Badge component="span" size="xs" tt="none" variant="light" color="grape">
              Admin
            </Badge>{' '}
          </>
        )}
        <Badge component="span" size="xs" tt="none" variant="default">
          {plural(role.Links, 'link')}
        </Badge>{' '}
        <Badge component="span" size="xs" tt="none" variant="default">
          {plural(role.Users, 'user')}
        </Badge>
      </span>
    </UnstyledButton>
  );
}
