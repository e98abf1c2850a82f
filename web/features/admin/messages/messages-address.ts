import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/** The inbox's view as the address keeps it: /admin/messages?archived=1&page=2. */
export interface MessagesAddress {
  page: number;
  archived: boolean;
}

/** Reads the view; a page that is not a whole number from 1 falls back to 1. */
export function messagesAddressOf(params: URLSearchParams): MessagesAddress {
  const page = Number(params.get('page') ?? '1');
  return {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    archived: params.get('archived') === '1',
  };
}

/** The query string of a view, leaving out the defaults (page 1 of the inbox). */
export function messagesSearchOf(view: MessagesAddress): URLSearchParams {
  const params = new URLSearchParams();
  if (view.archived) params.set('archived', '1');
  if (view.page > 1) params.set('page', String(view.page));
  return params;
}

/** The view in the address and its changes, written in place; switching inbox and archive starts at page 1. */
export function useMessagesAddress() {
  const [params, setParams] = useSearchParams();
  const view = messagesAddressOf(params);
  const setPage = useCallback(
    (page: number) =>
      setParams((current) => messagesSearchOf({ ...messagesAddressOf(current), page }), { replace: true }),
    [setParams],
  );
  const setArchived = useCallback(
    (archived: boolean) => setParams(() => messagesSearchOf({ page: 1, archived }), { replace: true }),
    [setParams],
  );
  return { ...view, setPage, setArchived };
}
