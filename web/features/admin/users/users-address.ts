import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/** The user list's view as the address keeps it: /admin/users?page=2&username=ad. */
export interface UsersAddress {
  page: number;
  /** The username prefix searched for ('' for all), trimmed. */
  username: string;
}

/** Reads the view; a page that is not a whole number from 1 falls back to 1. */
export function usersAddressOf(params: URLSearchParams): UsersAddress {
  const page = Number(params.get('page') ?? '1');
  return {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    username: (params.get('username') ?? '').trim(),
  };
}

/** The query string of a view, leaving out what is the default (page 1, no search). */
export function usersSearchOf(view: UsersAddress): URLSearchParams {
  const params = new URLSearchParams();
  if (view.page > 1) params.set('page', String(view.page));
  if (view.username) params.set('username', view.username);
  return params;
}

/** The view in the address, and its changes written in place (a new search starts at page 1). */
export function useUsersAddress() {
  const [params, setParams] = useSearchParams();
  const view = usersAddressOf(params);
  const setPage = useCallback(
    (page: number) =>
      setParams((current) => usersSearchOf({ ...usersAddressOf(current), page }), { replace: true }),
    [setParams],
  );
  const setUsername = useCallback(
    (username: string) =>
      setParams(() => usersSearchOf({ page: 1, username: username.trim() }), { replace: true }),
    [setParams],
  );
  return { ...view, setPage, setUsername };
}
