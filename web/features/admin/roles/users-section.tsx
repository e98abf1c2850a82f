import { useEffect, useId, useState } from 'react';
import {
  ActionIcon,
  Button,
  Combobox,
  Group,
  InputBase,
  Loader,
  ScrollArea,
  Stack,
  Text,
  Title,
  Tooltip,
  useCombobox,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconTrash, IconUser } from '@tabler/icons-react';
import type { Role } from '#common/contract/admin.ts';
import { COMBOBOX_DEBOUNCE_MS, LAZY_LOAD_SIZE } from '#common/limits.ts';
import { browserMessages } from '#common/messages.ts';
import { useUserChoices } from '#web/api/admin/users.ts';
import { addUser, type UserChoice } from './role-draft.ts';
import classes from './roles.module.css';

/** The dropdown's height limit (spec 000 §9: max height 200 px). */
const DROPDOWN_MAX_HEIGHT = 200;

export interface UsersSectionProps {
  draft: Role;
  onChange: (draft: Role) => void;
  onRemove: (index: number) => void;
  removingId: number | null;
  problem?: string;
}

/** A user of the role by name (a saved one carries its username; one without shows its Id). */
const usernameOf = (user: Role['User_Roles'][number]) => user.Username ?? `User ${user.UserId}`;

/**
 * The role's users (spec 000 §5, §9): each with Remove, and a searchable "User to add" combobox (usernames that
 * start with the typed text, sent after 150 ms, 25 per load and 25 more at the end of the list; users already in
 * the role are left out) with Add user ('User is required.').
 */
export function UsersSection({ draft, onChange, onRemove, removingId, problem }: UsersSectionProps) {
  const titleId = useId();
  const [picked, setPicked] = useState<UserChoice | null>(null);
  const [error, setError] = useState<string | null>(null);

  const add = () => {
    const result = addUser(draft, picked);
    if ('error' in result) {
      setError(result.error);
      return;
    }
    setError(null);
    setPicked(null);
    onChange(result.draft);
  };

  return (
    <Stack component="section" aria-labelledby={titleId} gap="xs">
      <Title order={3} fz="h5" id={titleId}>
        Users
      </Title>
      {problem && (
        <Text size="sm" c="red" role="alert">
          {problem}
        </Text>
      )}
      {draft.User_Roles.length === 0 ? (
        <Text size="sm" c="dimmed">
          No users have this role yet.
        </Text>
      ) : (
        <ul aria-label="Users" className={classes.list}>
          {draft.User_Roles.map((user, index) => (
            <li key={user.Id > 0 ? `saved-${user.Id}` : `new-${user.UserId}`} className={classes.item}>
              <Group gap="xs" wrap="nowrap">
                <IconUser size={16} aria-hidden="true" style={{ flexShrink: 0 }} />
                <Text size="sm" style={{ flex: 1, overflowWrap: 'anywhere' }}>
                  {usernameOf(user)}
                  {user.Id === 0 && (
                    <Text span size="xs" c="dimmed" ml={6}>
                      (not saved yet)
                    </Text>
                  )}
                </Text>
                <Tooltip label="Remove user">
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Remove user ${usernameOf(user)}`}
                    loading={user.Id > 0 && user.Id === removingId}
                    onClick={() => onRemove(index)}
                  >
                    <IconTrash size={18} aria-hidden="true" />
                  </ActionIcon>
                </Tooltip>
              </Group>
            </li>
          ))}
        </ul>
      )}
      <Group gap="xs" align="flex-start" wrap="nowrap">
        <UserPicker
          draft={draft}
          picked={picked}
          error={error}
          onPick={(user) => {
            setPicked(user);
            setError(null);
          }}
        />
        <Button variant="light" leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={add} mt={25}>
          Add user
        </Button>
      </Group>
    </Stack>
  );
}

function UserPicker({
  draft,
  picked,
  error,
  onPick,
}: {
  draft: Role;
  picked: UserChoice | null;
  error: string | null;
  onPick: (user: UserChoice | null) => void;
}) {
  const combobox = useCombobox({
    onDropdownClose: () => {
      combobox.resetSelectedOption();
      setSearch(null);
    },
  });
  // null: not searching, the input shows the picked user.
  const [search, setSearch] = useState<string | null>(null);
  const [term] = useDebouncedValue(search ?? '', COMBOBOX_DEBOUNCE_MS);
  const choices = useUserChoices(term, combobox.dropdownOpened);
  const added = new Set(draft.User_Roles.map((user) => user.UserId));
  const options = (choices.data?.pages.flatMap((page) => page.results) ?? []).filter(
    (user) => !added.has(user.id),
  );
  // When the users already in the role fill most of a load, the next one comes without a scroll (a short list
  // never reaches its end by scrolling).
  const { hasNextPage, isFetching, fetchNextPage } = choices;
  const opened = combobox.dropdownOpened;
  useEffect(() => {
    if (opened && hasNextPage && !isFetching && options.length < LAZY_LOAD_SIZE / 2) void fetchNextPage();
  }, [opened, hasNextPage, isFetching, options.length, fetchNextPage]);

  return (
    <Combobox
      store={combobox}
      onOptionSubmit={(value) => {
        const user = options.find((option) => String(option.id) === value);
        if (user) onPick({ UserId: user.id, Username: user.username });
        setSearch(null);
        combobox.closeDropdown();
      }}
    >
      <Combobox.Target withExpandedAttribute>
        <InputBase
          label="User to add"
          placeholder="Username"
          value={search ?? picked?.Username ?? ''}
          error={error}
          rightSection={<Combobox.Chevron />}
          rightSectionPointerEvents="none"
          onClick={() => combobox.openDropdown()}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
          onChange={(event) => {
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
            setSearch(event.currentTarget.value);
            if (picked) onPick(null);
          }}
          autoComplete="off"
          spellCheck={false}
          style={{ flex: 1 }}
        />
      </Combobox.Target>
      <Combobox.Dropdown>
        <Combobox.Options>
          <ScrollArea.Autosize
            mah={DROPDOWN_MAX_HEIGHT}
            type="scroll"
            onBottomReached={() => {
              if (choices.hasNextPage && !choices.isFetchingNextPage) void choices.fetchNextPage();
            }}
          >
            {options.map((user) => (
              <Combobox.Option value={String(user.id)} key={user.id} active={user.id === picked?.UserId}>
                {user.username}
                {/* The email tells two similar names apart; the option's name stays the username. */}
                <Text span size="xs" c="dimmed" ml={6} aria-hidden="true">
                  {user.email}
                </Text>
              </Combobox.Option>
            ))}
            {choices.isFetching && (
              <Combobox.Empty>
                <Loader size="xs" role="status" aria-label="Loading users" />
              </Combobox.Empty>
            )}
            {!choices.isFetching && options.length === 0 && (
              <Combobox.Empty>{browserMessages.noOptions}</Combobox.Empty>
            )}
          </ScrollArea.Autosize>
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
