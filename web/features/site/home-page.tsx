import type { ComponentType, CSSProperties, ReactNode } from 'react';
import { Link } from 'react-router';
import {
  Anchor,
  Box,
  Button,
  Card,
  Container,
  Flex,
  Group,
  List,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import {
  IconArrowRight,
  IconBrain,
  IconBrandOpenSource,
  IconCheck,
  IconCloud,
  IconCode,
  IconDatabase,
  IconDeviceMobile,
  IconExternalLink,
  IconMessages,
  IconUserPlus,
} from '@tabler/icons-react';
import type { IconProps } from '@tabler/icons-react';
import {
  homeHero,
  homeNews,
  homeOpenSource,
  homePromo,
  homeServices,
  homeSignUp,
} from '#common/content/home.ts';
// Teasers and summaries: the articles' bodies and the services' pages are the news and service pages' own.
import { formatNewsDate, newsPath, newsTeasers, type NewsTeaser } from '#common/content/news-teasers.ts';
import {
  serviceSummaries as services,
  servicePath,
  type ServiceSummary,
} from '#common/content/service-summaries.ts';
import { siteLinks } from '#web/site-links.ts';
import classes from '#web/features/site/home-page.module.css';
import { HomeTablePreview } from '#web/features/site/home-table-preview.tsx';
import { useRevealOnScroll } from '#web/features/site/use-reveal-on-scroll.ts';

const serviceIcons: Record<ServiceSummary['id'], ComponentType<IconProps>> = {
  database: IconDatabase,
  cloud: IconCloud,
  'custom-apps': IconCode,
  ai: IconBrain,
  'web-mobile': IconDeviceMobile,
  consult: IconMessages,
};

/** The newest articles first, for the news cards. */
const latestNews: readonly NewsTeaser[] = [...newsTeasers]
  .sort((a, b) => b.createdOn.localeCompare(a.createdOn))
  .slice(0, homeNews.count);

/**
 * /home (spec 001 §2, Homepage): the landing hero with Discover the Solution, the six service cards, the open-source
 * banner, the news cards, the Sign Up banner and the DBUI promo. Service and news cards appear when scrolled into view.
 */
export function HomePage() {
  return (
    <>
      <Box component="section" className={classes.hero} py={{ base: 48, md: 88 }}>
        <Container size="lg">
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing={56} style={{ alignItems: 'center' }}>
            <Stack gap="lg" align="flex-start">
              <Text
                className={classes.eyebrow}
                fw={700}
                size="sm"
                tt="uppercase"
                style={{ letterSpacing: '0.06em' }}
              >
                {homeHero.eyebrow}
              </Text>
              <Title order={1} fz={{ base: 34, sm: 46 }} lh={1.1} style={{ letterSpacing: '-0.02em' }}>
                {homeHero.heading}
              </Title>
              <Text size="lg" c="dimmed" maw={560}>
                {homeHero.text}
              </Text>
              <Flex gap="sm" w="100%" direction={{ base: 'column', xs: 'row' }}>
                <Button
                  component={Link}
                  to={homeHero.discoverPath}
                  size="md"
                  rightSection={<IconArrowRight size={18} aria-hidden="true" />}
                >
                  {homeHero.discover}
                </Button>
              </Flex>
            </Stack>
            <Box visibleFrom="md">
              <HomeTablePreview />
            </Box>
          </SimpleGrid>
        </Container>
      </Box>

      <Container component="section" size="lg" py={{ base: 48, md: 80 }} aria-labelledby="home-services">
        <Stack gap={6} align="center" ta="center" mb={40}>
          <Title order={2} id="home-services" fz={{ base: 26, sm: 32 }}>
            {homeServices.heading}
          </Title>
          <Text c="dimmed" maw={560}>
            {homeServices.text}
          </Text>
        </Stack>
        <RevealGrid label="Services">
          {services.map((service, index) => (
            <ServiceCard key={service.id} service={service} index={index} />
          ))}
        </RevealGrid>
      </Container>

      <OpenSourceBanner />

      <Container component="section" size="lg" py={{ base: 48, md: 80 }} aria-labelledby="home-news">
        <Flex
          justify="space-between"
          align={{ base: 'flex-start', sm: 'flex-end' }}
          direction={{ base: 'column', sm: 'row' }}
          gap="sm"
          mb={32}
        >
          <Stack gap={6}>
            <Title order={2} id="home-news" fz={{ base: 26, sm: 32 }}>
              {homeNews.heading}
            </Title>
            <Text c="dimmed" maw={560}>
              {homeNews.text}
            </Text>
          </Stack>
          <Button
            component={Link}
            to={homeNews.viewAllPath}
            variant="light"
            rightSection={<IconArrowRight size={16} aria-hidden="true" />}
          >
            {homeNews.viewAll}
          </Button>
        </Flex>
        <RevealGrid label="News">
          {latestNews.map((article, index) => (
            <NewsCard key={article.title} article={article} index={index} />
          ))}
        </RevealGrid>
      </Container>

      <SignUpBanner />
      <DbuiPromo />
    </>
  );
}

/**
 * A grid of cards that fade in when it comes into view (spec 001 §9: 750 ms, each card 250 ms after the one before);
 * each card's delay comes from its place (revealDelay).
 */
function RevealGrid({ label, children }: { label: string; children: ReactNode }) {
  const [ref, revealed] = useRevealOnScroll<HTMLDivElement>();
  return (
    <SimpleGrid
      ref={ref}
      cols={{ base: 1, xs: 2, md: 3 }}
      spacing="lg"
      className={classes.reveal}
      data-revealed={revealed || undefined}
      data-testid={`${label.toLowerCase()}-cards`}
    >
      {children}
    </SimpleGrid>
  );
}

/** Spec 001 §9: page animations last 750 ms, staggered by 250 ms (the duration is in home-page.module.css). */
const REVEAL_STAGGER_MS = 250;

function revealDelay(index: number): CSSProperties {
  return { transitionDelay: `${index * REVEAL_STAGGER_MS}ms` };
}

function OpenSourceBanner() {
  // The repository's address is the operator's (SOURCE_CODE_URL): without it the banner stands without its link.
  const repository = siteLinks().sourceCode;
  return (
    <Box
      component="section"
      className={classes.band}
      py={{ base: 40, md: 56 }}
      aria-labelledby="home-open-source"
    >
      <Container size="lg">
        <Flex
          gap="lg"
          align={{ base: 'flex-start', md: 'center' }}
          justify="space-between"
          direction={{ base: 'column', md: 'row' }}
        >
          <Group gap="md" wrap="nowrap" align="flex-start">
            <ThemeIcon size={48} radius="md" variant="white" color="dark" aria-hidden="true">
              <IconBrandOpenSource size={28} stroke={1.6} />
            </ThemeIcon>
            <Stack gap={6}>
              <Title order={2} id="home-open-source" fz={{ base: 22, sm: 26 }} c="white">
                {homeOpenSource.heading}
              </Title>
              <Text c="gray.3" maw={640}>
                {homeOpenSource.text}
              </Text>
            </Stack>
          </Group>
          {repository && (
            <Button
              component="a"
              href={repository}
              target="_blank"
              rel="noopener noreferrer"
              variant="white"
              color="dark"
              rightSection={<IconExternalLink size={16} aria-hidden="true" />}
              style={{ flexShrink: 0 }}
            >
              {homeOpenSource.action}
            </Button>
          )}
        </Flex>
      </Container>
    </Box>
  );
}

function NewsCard({ article, index }: { article: NewsTeaser; index: number }) {
  return (
    <Card withBorder padding="lg" className={classes.revealItem} style={revealDelay(index)}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {formatNewsDate(article.createdOn)}
      </Text>
      <Title order={3} fz="lg" mt={6}>
        {article.title}
      </Title>
      <Text size="sm" c="dimmed" mt={6} style={{ flex: 1 }}>
        {article.summary}
      </Text>
      <Anchor
        component={Link}
        to={newsPath(article)}
        mt="md"
        fw={600}
        size="sm"
        aria-label={`${homeNews.readMore}: ${article.title}`}
      >
        {homeNews.readMore}
      </Anchor>
    </Card>
  );
}

function SignUpBanner() {
  return (
    <Container component="section" size="lg" pb={{ base: 48, md: 80 }} aria-labelledby="home-sign-up">
      <Paper radius="lg" p={{ base: 'lg', sm: 40 }} className={classes.signUp}>
        <Flex
          gap="lg"
          align={{ base: 'flex-start', sm: 'center' }}
          justify="space-between"
          direction={{ base: 'column', sm: 'row' }}
        >
          <Stack gap={6}>
            <Title order={2} id="home-sign-up" fz={{ base: 22, sm: 28 }}>
              {homeSignUp.heading}
            </Title>
            <Text maw={560}>{homeSignUp.text}</Text>
          </Stack>
          <Button
            component={Link}
            to={homeSignUp.path}
            size="md"
            leftSection={<IconUserPlus size={18} aria-hidden="true" />}
            style={{ flexShrink: 0 }}
          >
            {homeSignUp.action}
          </Button>
        </Flex>
      </Paper>
    </Container>
  );
}

function DbuiPromo() {
  return (
    <Box component="section" className={classes.promo} py={{ base: 48, md: 80 }} aria-labelledby="home-promo">
      <Container size="lg">
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing={48} style={{ alignItems: 'center' }}>
          <Stack gap="md" align="flex-start">
            <Text
              className={classes.eyebrow}
              fw={700}
              size="sm"
              tt="uppercase"
              style={{ letterSpacing: '0.06em' }}
            >
              {homePromo.eyebrow}
            </Text>
            <Title order={2} id="home-promo" fz={{ base: 26, sm: 34 }} lh={1.15}>
              {homePromo.heading}
            </Title>
            <Text c="dimmed" size="lg">
              {homePromo.text}
            </Text>
            <Flex gap="sm" w="100%" direction={{ base: 'column', xs: 'row' }}>
              <Button component={Link} to={homePromo.learnMorePath} variant="default" size="md">
                {homePromo.learnMore}
              </Button>
              <Button component={Link} to={homePromo.buyNowPath} size="md">
                {homePromo.buyNow}
              </Button>
              <Button component={Link} to={homePromo.requestDemoPath} variant="light" size="md">
                {homePromo.requestDemo}
              </Button>
            </Flex>
          </Stack>
          <List spacing="sm" icon={<IconCheck size={20} aria-hidden="true" className={classes.check} />}>
            {homePromo.points.map((point) => (
              <List.Item key={point}>{point}</List.Item>
            ))}
          </List>
        </SimpleGrid>
      </Container>
    </Box>
  );
}

function ServiceCard({ service, index }: { service: ServiceSummary; index: number }) {
  const Icon = serviceIcons[service.id];
  return (
    <Card
      component={Link}
      to={servicePath(service.id)}
      aria-label={service.name}
      withBorder
      padding="lg"
      className={`${classes.card} ${classes.revealItem}`}
      style={revealDelay(index)}
    >
      <ThemeIcon variant="light" size={44} radius="md" aria-hidden="true">
        <Icon size={24} stroke={1.8} />
      </ThemeIcon>
      <Title order={3} fz="lg" mt="md">
        {service.name}
      </Title>
      <Text size="sm" c="dimmed" mt={6}>
        {service.summary}
      </Text>
    </Card>
  );
}
