import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/** The page's view as the address keeps it: /admin/chats?page=2&chat=<session id>. */
export interface ChatsAddress {
  page: number;
  /** The conversation open beside the list (in a drawer on phones), null when none. */
  chat: string | null;
}

/** Reads the view; a page that is not a whole number from 1 falls back to 1. */
export function chatsAddressOf(params: URLSearchParams): ChatsAddress {
  const page = Number(params.get('page') ?? '1');
  const chat = params.get('chat')?.trim();
  return { page: Number.isInteger(page) && page >= 1 ? page : 1, chat: chat ? chat : null };
}

/** The query string of a view, leaving out the defaults (page 1, no conversation open). */
export function chatsSearchOf(view: ChatsAddress): URLSearchParams {
  const params = new URLSearchParams();
  if (view.page > 1) params.set('page', String(view.page));
  if (view.chat) params.set('chat', view.chat);
  return params;
}

/** The view in the address and its changes, written in place; turning the page keeps the open conversation. */
export function useChatsAddress() {
  const [params, setParams] = useSearchParams();
  const view = chatsAddressOf(params);
  const setPage = useCallback(
    (page: number) =>
      setParams((current) => chatsSearchOf({ ...chatsAddressOf(current), page }), { replace: true }),
    [setParams],
  );
  const setChat = useCallback(
    (chat: string | null) =>
      setParams((current) => chatsSearchOf({ ...chatsAddressOf(current), chat }), { replace: true }),
    [setParams],
  );
  return { ...view, setPage, setChat };
}
