import { useMemo, useState } from 'react';
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { adminUserQueryOptions } from '#web/api/admin/user.ts';
import { useUserChoices } from '#web/api/admin/users.ts';

export interface UserFilterProps {
  userId: number | null;
  onChange: (userId: number | null) => void;
}

/** The filter "User": a searchable select of usernames (25 at a time, more on scrolling to the end). */
export function UserFilter({ userId, onChange }: UserFilterProps) {
  const [search, setSearch] = useState('');
  const [opened, setOpened] = useState(false);
  // A user chosen by the address (a user's page links here) may not be among the first 25: their name comes alone.
  const chosen = useQuery({ ...adminUserQueryOptions(userId ?? 0), enabled: userId !== null });
  const chosenName = userId === null ? null : (chosen.data?.username ?? null);
  // The chosen name in the box is no search: the list then starts from the first user again.
  const [term] = useDebouncedValue(search === chosenName ? '' : search, 250);
  const choices = useUserChoices(term, opened);

  const data = useMemo(() => {
    const options = (choices.data?.pages ?? []).flatMap((page) =>
      page.results.map((user) => ({ value: String(user.id), label: user.username })),
    );
    if (userId !== null && !options.some((o) => o.value === String(userId)))
      options.unshift({ value: String(userId), label: chosenName ?? `User ${userId}` });
    return options;
  }, [choices.data, userId, chosenName]);

  return (
    <Select
      label="User"
      placeholder="Anyone"
      searchable
      clearable
      data={data}
      value={userId === null ? null : String(userId)}
      onChange={(value) => onChange(value === null ? null : Number(value))}
      searchValue={search}
      onSearchChange={setSearch}
      onDropdownOpen={() => setOpened(true)}
      filter={({ options }) => options}
      nothingFoundMessage={choices.isFetching ? 'Loading users…' : 'No user has a name starting so.'}
      scrollAreaProps={{
        onBottomReached: () => {
          if (choices.hasNextPage && !choices.isFetchingNextPage) void choices.fetchNextPage();
        },
      }}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
