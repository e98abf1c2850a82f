import { useEffect, useId, useRef } from 'react';
import { Link, useLocation } from 'react-router';
import { Anchor, Button, Container, Flex, Group, Paper, Text } from '@mantine/core';
import { useConsent } from '#web/features/consent/consent-store.ts';
import { consentTexts } from '#web/features/consent/consent-texts.ts';

/**
 * Spec 001 §2, §4: the cookie consent banner, shown until the visitor accepts, or again 30 days after a rejection.
 * Fixed at the bottom of the screen; while it shows, the page gets room below its end and scrolls a focused control
 * above it (padding and scroll padding as tall as the banner), so it covers nothing for good on a phone. A region
 * named by its title; its link and buttons are ordinary tab stops.
 */
export function ConsentBanner() {
  const { choice, choose } = useConsent();
  const { pathname } = useLocation();
  if (choice !== null) return null;
  return (
    <ShownBanner
      onAccept={() => choose('accepted', pathname)}
      onReject={() => choose('rejected', pathname)}
    />
  );
}

function ShownBanner({ onAccept, onReject }: { onAccept: () => void; onReject: () => void }) {
  const titleId = useId();
  const ref = useRoomBelow();
  return (
    <Paper
      ref={ref}
      component="section"
      aria-labelledby={titleId}
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
            <Text id={titleId} fw={700} size="sm">
              {consentTexts.title}
            </Text>
            <Text size="sm">
              {consentTexts.body}{' '}
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
