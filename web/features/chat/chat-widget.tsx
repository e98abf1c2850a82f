import {
  Suspense,
  useCallback,
  useEffect,
  useRef,
  useState,
  type ComponentProps,
  type CSSProperties,
  type Ref,
} from 'react';
import { useLocation } from 'react-router';
import { ActionIcon, Loader } from '@mantine/core';
import { IconMessageChatbot } from '@tabler/icons-react';
import { siteMessages } from '#common/shell-messages.ts';
import { withQueriesOf } from '#web/api/queries.tsx';
import type { ChatWindow as ChatWindowComponent } from '#web/features/chat/chat-window.tsx';
import { readStoredChat, writeStoredChat } from '#web/features/chat/chat-storage.ts';
import type { ChatStage } from '#web/features/chat/chat-stage.ts';
import classes from './chat-widget.module.css';
import { useLauncherOverForm } from './launcher-clearance.ts';

// The window, its streaming and its links load on first open (the home page's JavaScript budget, spec 001 §2), with
// TanStack Query's client, which the window's calls use (decision 0033: withQueriesOf).
const ChatWindow = withQueriesOf<ComponentProps<typeof ChatWindowComponent>>(() =>
  import('#web/features/chat/chat-window.tsx').then((m) => ({ default: m.ChatWindow })),
);

/** Pages without Titan: the database browser, the administration area and the content creator. */
function withoutChat(pathname: string): boolean {
  return /^\/(db|admin)(\/|$)/.test(pathname) || /^\/cc\/?$/.test(pathname);
}

/**
 * Titan, the support chat (spec 001 §2): a round button at the bottom right that opens the window. Mounted once in
 * the site's layout, so the conversation survives navigation; this tab's session storage keeps the session id and
 * whether the window was open, so it survives a reload too. Only this small part is in the page's first download.
 */
export function ChatWidget() {
  const { pathname } = useLocation();
  const hidden = withoutChat(pathname);
  const [stored] = useState(readStoredChat);
  const [stage, setStage] = useState<ChatStage>(stored.open ? 'open' : 'minimized');
  // The window's code: at once when it was open before the reload, else on first open.
  const [loaded, setLoaded] = useState(stored.open);
  const launcher = useRef<HTMLButtonElement>(null);
  const room = useBannerRoom();

  // A conversation of this tab that is minimized: its window's code loads when the browser is idle.
  useEffect(() => {
    if (loaded || stored.sessionId === null) return;
    return whenIdle(() => setLoaded(true));
  }, [loaded, stored.sessionId]);

  const open = () => {
    setLoaded(true);
    setStage('opening');
    writeStoredChat({ open: true });
  };
  const onOpened = useCallback(() => setStage('open'), []);
  const onMinimize = useCallback(() => {
    setStage('closing');
    writeStoredChat({ open: false });
  }, []);
  const onClosed = useCallback(() => setStage('closed'), []);

  // Focus returns to the button once the window has gone (Escape or the minimize button).
  const returnFocus = useRef(false);
  useEffect(() => {
    if (stage === 'closing') returnFocus.current = true;
    if (stage === 'closed' && returnFocus.current) {
      returnFocus.current = false;
      launcher.current?.focus();
    }
  }, [stage]);

  const minimized = stage === 'minimized' || stage === 'closed';
  const overForm = useLauncherOverForm(launcher, minimized && !hidden, pathname, room);
  return (
    <div style={{ '--chat-room': room } as CSSProperties} data-chat-stage={stage}>
      {minimized && !hidden && <Launcher ref={launcher} onClick={open} stepsAside={overForm} />}
      {loaded && (
        <Suspense fallback={minimized || hidden ? null : <Launcher busy />}>
          <ChatWindow
            stage={stage}
            hidden={hidden}
            onOpened={onOpened}
            onMinimize={onMinimize}
            onClosed={onClosed}
          />
        </Suspense>
      )}
    </div>
  );
}

interface LauncherProps {
  ref?: Ref<HTMLButtonElement>;
  onClick?: () => void;
  /** It would cover a form of the page (launcher-clearance.ts): hidden until the page scrolls past it. */
  stepsAside?: boolean;
  /** The window's code is on its way. */
  busy?: boolean;
}

function Launcher({ ref, onClick, stepsAside = false, busy = false }: LauncherProps) {
  return (
    <ActionIcon
      ref={ref}
      className={classes.launcher}
      radius="xl"
      size="xl"
      variant="filled"
      aria-label={siteMessages.chatTitle}
      aria-busy={busy || undefined}
      data-steps-aside={stepsAside || undefined}
      onClick={onClick}
    >
      {busy ? <Loader size="sm" color="white" /> : <IconMessageChatbot size={28} aria-hidden="true" />}
    </ActionIcon>
  );
}

/** Runs a task when the browser is idle (or soon, where it cannot tell); returns its cancel. */
function whenIdle(task: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(task, { timeout: 5000 });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = window.setTimeout(task, 2000);
  return () => window.clearTimeout(timer);
}

/**
 * The height the cookie banner keeps free below the page while it shows (web/features/consent/consent-banner.tsx
 * writes it as the body's bottom padding), so the launcher and the window stand above the banner's buttons.
 */
function useBannerRoom(): string {
  const [room, setRoom] = useState(() => document.body.style.paddingBottom || '0px');
  useEffect(() => {
    const read = () => setRoom(document.body.style.paddingBottom || '0px');
    read();
    const observer = new MutationObserver(read);
    observer.observe(document.body, { attributes: true, attributeFilter: ['style'] });
    return () => observer.disconnect();
  }, []);
  return room;
}
