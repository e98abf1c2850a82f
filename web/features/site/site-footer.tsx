import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Anchor, Box, Container, Divider, Grid, Group, Stack, Text, Title } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { COPYRIGHT_YEAR, companyLinks, externalLinksOf, legalLinks, products } from '#common/content/site.ts';
import type { SiteLink } from '#common/content/site.ts';
import { siteLinks } from '#web/site-links.ts';
import { Wordmark } from '#web/ui/wordmark.tsx';
import { useConsent } from '#web/features/consent/consent-store.ts';
import { consentTexts } from '#web/features/consent/consent-texts.ts';
import { serviceLinks } from '#web/features/site/site-navigation.ts';

/** The site footer (spec 001 §2): services, product, company and legal links (and Cookie settings), the external
 * links, the copyright. */
export function SiteFooter() {
  // Spec 001 §2: the external social, code and shop links, after the copyright; those the operator set.
  const outsideLinks = externalLinksOf(siteLinks());
  return (
    <Box component="footer" bg="dark.8" c="gray.4" py={{ base: 40, sm: 56 }}>
      <Container size="lg">
        <Grid gap={{ base: 'lg', md: 'xl' }}>
          <Grid.Col span={{ base: 12, md: 3 }}>
            <Stack gap="sm">
              <Wordmark inverted />
              <Text size="sm" maw={280}>
                Browse, search, edit and export the data in your databases, safely, from any browser.
              </Text>
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, xs: 4, md: 3 }}>
            <LinkColumn title="Services" links={serviceLinks} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, xs: 4, md: 3 }}>
            <LinkColumn title="Company" links={[...products, ...companyLinks]} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, xs: 4, md: 3 }}>
            <LinkColumn title="Legal" links={legalLinks}>
              <CookieSettings />
            </LinkColumn>
          </Grid.Col>
        </Grid>
        <Divider my="xl" color="dark.5" />
        <Group justify="space-between" gap="md">
          <Text size="sm">© {COPYRIGHT_YEAR} DBUI. All rights reserved.</Text>
          {outsideLinks.length > 0 && (
            <Group component="ul" gap="lg" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Elsewhere">
              {outsideLinks.map((link) => (
                <li key={link.href}>
                  <Anchor
                    href={link.href}
                    target="_blank"
                    rel="noopener noreferrer"
                    c="gray.4"
                    size="sm"
                    underline="hover"
                    aria-label={`${link.label} (opens in a new tab)`}
                  >
                    <Group gap={4} component="span" wrap="nowrap">
                      {link.label}
                      <IconExternalLink size={14} aria-hidden="true" />
                    </Group>
                  </Anchor>
                </li>
              ))}
            </Group>
          )}
        </Group>
      </Container>
    </Box>
  );
}

/** Shows the cookie consent banner again, so the visitor can change an earlier choice (web/features/consent). An
 * action, not a place: a button that looks like the links beside it. */
function CookieSettings() {
  const { reopen } = useConsent();
  return (
    <Anchor
      component="button"
      type="button"
      onClick={reopen}
      c="gray.4"
      size="sm"
      underline="hover"
      ta="start"
    >
      {consentTexts.settings}
    </Anchor>
  );
}

function LinkColumn({
  title,
  links,
  children,
}: {
  title: string;
  links: readonly SiteLink[];
  children?: ReactNode;
}) {
  return (
    <Stack gap={8}>
      <Title order={2} size="sm" c="white" tt="uppercase" style={{ letterSpacing: '0.06em' }}>
        {title}
      </Title>
      {links.map((link) => (
        <Anchor key={link.to} component={Link} to={link.to} c="gray.4" size="sm" underline="hover">
          {link.label}
        </Anchor>
      ))}
      {children}
    </Stack>
  );
}
