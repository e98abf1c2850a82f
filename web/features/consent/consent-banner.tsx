import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { Anchor, Button, Container, Flex, Group, Paper, Text } from '@mantine/core';
import type { ConsentState } from '#web/features/consent/consent-storage.ts';
import { useConsent } from '#web/features/consent/consent-store.ts';
import { consentTexts } from '#web/features/consent/consent-texts.ts';

/**
 * Spec 001 §2, §4: the cookie consent banner, shown until the visitor accepts, or again 30 days after a rejection,
 * or when the visitor asks for it again with the footer's Cookie settings (then it says the choice in force, takes
 * the focus, and gives it back to Cookie settings once answered; Escape keeps the choice).
 * Fixed at the bottom of the screen; while it shows, the page gets room below its end and scrolls a focused control
 * above it (padding and scroll padding as tall as the banner), so it covers nothing for good on a phone. A region
 * named by its title; its link and buttons are ordinary tab stops.
 */
export function ConsentBanner() {
  const { choice, reopened, choose } = useConsent();
  const { pathname } = useLocation();
  if (choice !== null && !reopened) return null;
  return (
    <ShownBanner
      current={reopened ? choice : null}
      onAccept={() => choose('accepted', pathname)}
      onReject={() => choose('rejected', pathname)}
      onKeep={() => {
        if (choice !== null) choose(choice, pathname);
      }}
    />
  );
}

function ShownBanner({
  current,
  onAccept,
  onReject,
  onKeep,
}: {
  /** The choice in force when the visitor opened the banner again; null on a first visit. */
  current: ConsentState;
  onAccept: () => void;
  onReject: () => void;
  onKeep: () => void;
}) {
  const titleId = useId();
  const ref = useRoomBelow();
  const titleRef = useFocusWhenReopened(current !== null);
  return (
    <Paper
      ref={ref}
      component="section"
      aria-labelledby={titleId}
      onKeyDown={(event: KeyboardEvent) => {
        if (event.key === 'Escape' && current !== null) onKeep();
      }}
      shadow="md"
      radius={0}
      withBorder
      py="sm"
      style={{ position: 'fixed', insetInline: 0, bottom: 0, zIndex: 150 }}
    >
      <Container size="lg">
        <Flex
          direction={{ base: 'column', sm: 'row' }}
          gap={{ base: 'xs', sm: 'lg' }}
          align={{ base: 'stretch', sm: 'center' }}
        >
          <div style={{ flex: 1 }}>
            <Text
              id={titleId}
              ref={titleRef}
              tabIndex={current === null ? undefined : -1}
              fw={700}
              size="sm"
              style={{ outlineOffset: 2 }}
            >
              {consentTexts.title}
            </Text>
            {/* Opened again: the choice in force and what the other answer does, instead of the first question. */}
            <Text size="sm">
              {current === null ? consentTexts.body : consentTexts.current[current]}{' '}
              <Anchor component={Link} to={consentTexts.privacyPath} size="sm" underline="always">
                {consentTexts.privacyLink}
              </Anchor>
              .
            </Text>
          </div>
          {/* Two answers of the same size: rejecting is as easy as accepting. */}
          <Group gap="sm" wrap="nowrap" grow style={{ flexShrink: 0 }}>
            <Button variant="default" onClick={onReject} miw={110}>
              {consentTexts.reject}
            </Button>
            <Button onClick={onAccept} miw={110}>
              {consentTexts.accept}
            </Button>
          </Group>
        </Flex>
      </Container>
    </Paper>
  );
}

/**
 * When the visitor opened the banner again, moves the focus to its title (the banner sits first in the page's order
 * but is drawn at the bottom) and, once it closes, gives the focus back to what opened it (Cookie settings).
 */
function useFocusWhenReopened(reopened: boolean) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (!reopened) return;
    const opener = document.activeElement;
    ref.current?.focus();
    return () => {
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, [reopened]);
  return ref;
}

/** Keeps room below the page as tall as the banner (padding, and scroll padding for focus), removed with it. */
function useRoomBelow() {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    const banner = ref.current;
    if (!banner) return;
    const { body, documentElement } = document;
    const apply = () => {
      const height = `${Math.ceil(banner.getBoundingClientRect().height)}px`;
      body.style.paddingBottom = height;
      documentElement.style.scrollPaddingBottom = height;
    };
    apply();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(apply);
    observer?.observe(banner);
    return () => {
      observer?.disconnect();
      body.style.paddingBottom = '';
      documentElement.style.scrollPaddingBottom = '';
    };
  }, []);
  return ref;
}
