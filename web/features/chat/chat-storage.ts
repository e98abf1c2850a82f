/** Where the widget remembers its conversation for this tab: the session id and whether the window was open. */
export const CHAT_STORAGE_KEY = 'dbui-chat-v1';

export interface StoredChat {
  sessionId: string | null;
  open: boolean;
}

/** What this tab remembers (nothing when storage is unavailable or holds something else). */
export function readStoredChat(): StoredChat {
  try {
    const parsed: unknown = JSON.parse(window.sessionStorage.getItem(CHAT_STORAGE_KEY) ?? 'null');
    if (typeof parsed !== 'object' || parsed === null) return { sessionId: null, open: false };
    const sessionId = 'sessionId' in parsed && typeof parsed.sessionId === 'string' ? parsed.sessionId : null;
    const open = 'open' in parsed && parsed.open === true;
    return { sessionId, open };
  } catch {
    return { sessionId: null, open: false };
  }
}

/** Changes part of what this tab remembers; a browser that refuses storage simply forgets at the next reload. */
export function writeStoredChat(change: Partial<StoredChat>): void {
  try {
    window.sessionStorage.setItem(CHAT_STORAGE_KEY, JSON.stringify({ ...readStoredChat(), ...change }));
  } catch {
    // Private modes may refuse storage: the conversation still lives until the page is reloaded.
  }
}
