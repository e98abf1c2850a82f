import { useState } from 'react';
import { CloseButton, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { userTexts as ut } from './user-texts.ts';

/** How long typing must pause before the list searches. */
export const SEARCH_DEBOUNCE_MS = 250;

export interface UsersSearchProps {
  /** The prefix the address holds. */
  username: string;
  /** A new prefix (trimmed), 250 ms after the typing stops. */
  onSearch: (username: string) => void;
}

/** "Search users": a username prefix, searched 250 ms after the last key; follows the address when it changes. */
export function UsersSearch({ username, onSearch }: UsersSearchProps) {
  const [text, setText] = useState(username);
  const [seen, setSeen] = useState(username);
  const search = useDebouncedCallback((value: string) => onSearch(value.trim()), SEARCH_DEBOUNCE_MS);
  // The address changed elsewhere (the admin menu's Users link, going back): the box shows it.
  if (username !== seen) {
    setSeen(username);
    if (text.trim() !== username) setText(username);
  }
  const change = (value: string) => {
    setText(value);
    search(value);
  };
  const clear = () => {
    search.cancel();
    setText('');
    onSearch('');
  };
  return (
    <TextInput
      label={ut.search}
      placeholder={ut.searchPlaceholder}
      leftSection={<IconSearch size={16} aria-hidden />}
      value={text}
      onChange={(event) => change(event.currentTarget.value)}
      rightSection={text ? <CloseButton size="sm" aria-label="Clear the search" onClick={clear} /> : null}
      maw={{ base: '100%', sm: 360 }}
      autoComplete="off"
      spellCheck={false}
    />
  );
}
