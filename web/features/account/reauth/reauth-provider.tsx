import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { usePopup } from '#web/ui/popups.ts';
import { ReauthContext, type ReauthPrompt } from './reauth-context.ts';
import { ReauthModal } from './reauth-modal.tsx';

/**
 * Gives the components below it `useReauth()`: one confirmation modal for the whole page. Several calls refused at
 * once share the same modal and are all answered by it. Signing out closes it like every popup (as a cancel).
 */
export function ReauthProvider({
  canUseApp = false,
  children,
}: {
  canUseApp?: boolean;
  children: ReactNode;
}) {
  const [opened, setOpened] = useState(false);
  const waiting = useRef<((confirmed: boolean) => void)[]>([]);

  const settle = useCallback((confirmed: boolean) => {
    const answers = waiting.current;
    waiting.current = [];
    setOpened(false);
    for (const answer of answers) answer(confirmed);
  }, []);
  const cancel = useCallback(() => settle(false), [settle]);
  usePopup(opened, cancel);
  // A page left while the modal waits answers its callers as cancelled rather than never.
  useEffect(() => () => settle(false), [settle]);

  const prompt = useMemo<ReauthPrompt>(
    () => ({
      confirm: () =>
        new Promise<boolean>((resolve) => {
          waiting.current.push(resolve);
          setOpened(true);
        }),
    }),
    [],
  );

  return (
    <ReauthContext value={prompt}>
      {children}
      <ReauthModal opened={opened} canUseApp={canUseApp} onConfirmed={() => settle(true)} onCancel={cancel} />
    </ReauthContext>
  );
}
