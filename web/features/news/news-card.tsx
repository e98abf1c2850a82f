import { Link } from 'react-router';
import { Anchor, Button, Card, Stack, Text, Title } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { formatNewsDate, newsPath } from '#common/content/news.ts';
import type { NewsArticle } from '#common/content/news.ts';
import { NewsIllustration } from '#web/features/news/news-illustration.tsx';
import classes from '#web/features/news/news.module.css';

/** One article as a card: picture, date, title (a link), summary and Read More. */
export function NewsCard({ article, headingOrder }: { article: NewsArticle; headingOrder: 2 | 3 }) {
  const to = newsPath(article);
  return (
    <Card component="article" withBorder padding="lg" radius="md" className={classes.card}>
      <Card.Section>
        <NewsIllustration image={article.image} height={140} />
      </Card.Section>
      <Stack gap="xs" mt="md" style={{ flex: 1 }}>
        <Text size="sm" c="dimmed">
          <time dateTime={article.createdOn}>{formatNewsDate(article.createdOn)}</time> · {article.author}
        </Text>
        <Title order={headingOrder} fz="h4">
          <Anchor component={Link} to={to} className={classes.titleLink}>
            {article.title}
          </Anchor>
        </Title>
        <Text size="sm" style={{ flex: 1 }}>
          {article.summary}
        </Text>
        <Button
          component={Link}
          to={to}
          variant="light"
          aria-label={`Read More: ${article.title}`}
          rightSection={<IconArrowRight size={16} aria-hidden="true" />}
          style={{ alignSelf: 'flex-start' }}
        >
          Read More
        </Button>
      </Stack>
    </Card>
  );
}
