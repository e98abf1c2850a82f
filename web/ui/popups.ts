import { useEffect, useRef } from 'react';

/*
 * Every open popup (modal, drawer) registers how to close itself, so leaving a session can close all of them at once
 * (spec 000 §4: unauthenticated access "closes all popups"). A popup opened through Mantine's <Modal> calls
 * usePopup(opened, close).
 */
const closers = new Set<() => void>();

/** Registers a popup's close function; returns its removal. */
export function registerPopup(close: () => void): () => void {
  const entry = () => close();
  closers.add(entry);
  return () => closers.delete(entry);
}

/** Closes every registered popup. */
export function closeAllPopups(): void {
  for (const close of [...closers]) close();
}

/** Keeps an open popup in the registry while it is open. */
export function usePopup(opened: boolean, close: () => void): void {
  const latest = useRef(close);
  useEffect(() => {
    latest.current = close;
  });
  useEffect(() => (opened ? registerPopup(() => latest.current()) : undefined), [opened]);
}
