import { Suspense, useEffect, useRef, useState, type CSSProperties } from 'react';
import { Outlet, useLocation, useNavigationType } from 'react-router';
import { Box, Group, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { shellMessages } from '#common/shell-messages.ts';
import { PageLoader } from '#web/ui/page-loader.tsx';
import { ChatWidget } from '#web/features/chat/chat-widget.tsx';
import { ConsentBanner } from '#web/features/consent/consent-banner.tsx';
import { usePageViews } from '#web/features/consent/use-page-views.ts';
import { SiteChromeContext } from '#web/features/site/site-chrome.ts';
import { SiteFooter } from '#web/features/site/site-footer.tsx';
import { SiteHeader } from '#web/features/site/site-header.tsx';
import classes from './site-layout.module.css';

/** Spec 001 §9: the header takes 8% of the viewport's height (never under 3rem, which a landscape phone would give). */
const HEADER_HEIGHT = 'max(8vh, 3rem)';

/** The shell around every page: fixed header, under-development banner, the page, and the footer. */
export function SiteLayout() {
  const location = useLocation();
  // A page may hide the header, banner and footer (site-chrome.ts; the content creator does).
  const [chromeHidden, setChromeHidden] = useState(false);
  // Spec 001 §2: each navigation reports a 'PageView', only with the visitor's consent (web/features/consent).
  usePageViews();

  // Spec 001 §2: every navigation scrolls the main area to the top; an address rewritten in place on the same page
  // (a list's page or filter, written with replace) keeps the reader where they are.
  const navigationType = useNavigationType();
  const shownPath = useRef(location.pathname);
  useEffect(() => {
    const samePage = navigationType === 'REPLACE' && shownPath.current === location.pathname;
    shownPath.current = location.pathname;
    if (!samePage) window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  }, [location.key, location.pathname, navigationType]);

  return (
    // A column as tall as the screen: the footer sits at the bottom of short pages and after long ones.
    <div
      className={classes.shell}
      data-chrome-hidden={chromeHidden || undefined}
      style={{ '--site-header-height': HEADER_HEIGHT } as CSSProperties}
    >
      {/* First in the page's order, so the keyboard and screen readers meet it first; shown fixed at the bottom. */}
      <ConsentBanner />
      {!chromeHidden && (
        // right-scroll-bar-position: a modal's scroll lock keeps the fixed header where it is (react-remove-scroll).
        <header className={`${classes.header} right-scroll-bar-position`}>
          <SiteHeader />
        </header>
      )}
      <main className={classes.main}>
        {!chromeHidden && <UnderDevelopmentBanner />}
        <Suspense fallback={<PageLoader />}>
          <SiteChromeContext value={setChromeHidden}>
            {/* Spec 001 §2: routes are never reused; each navigation rebuilds the page. */}
            <Outlet key={location.key} />
          </SiteChromeContext>
        </Suspense>
      </main>
      {!chromeHidden && <SiteFooter />}
      {/* Titan (spec 001 §2): mounted once here so its conversation survives navigation; it hides itself on the
          pages without it (/db, /admin, /cc). */}
      <ChatWidget />
    </div>
  );
}

function UnderDevelopmentBanner() {
  return (
    // A note beside the page's content (its colours for each scheme: site-layout.module.css).
    <Box role="note" className={classes.developmentBanner} py={6} px="md">
      <Group gap={8} justify="center" wrap="nowrap">
        <IconAlertTriangle size={16} aria-hidden="true" style={{ flexShrink: 0 }} />
        <Text size="sm" ta="center">
          {shellMessages.underDevelopment}
        </Text>
      </Group>
    </Box>
  );
}
