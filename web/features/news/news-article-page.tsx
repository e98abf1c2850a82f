import { Link, useParams } from 'react-router';
import { Anchor, Container, Divider, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import {
  findNewsArticle,
  formatNewsDate,
  otherNewsArticles,
  splitNewsContent,
} from '#common/content/news.ts';
import { NewsCard } from '#web/features/news/news-card.tsx';
import { NewsIllustration } from '#web/features/news/news-illustration.tsx';
import classes from '#web/features/news/news.module.css';

/**
 * /news/{title}: one article (spec 001 §2): an unknown title selects the first; the body in two columns, the last
 * three paragraphs in the second; the three other articles under 'Want to keep Reading?'.
 */
export function NewsArticlePage() {
  const { title } = useParams();
  const article = findNewsArticle(title);
  const { first, second } = splitNewsContent(article.content);
  return (
    <Container size="lg" py={{ base: 'lg', sm: 'xl' }}>
      <Anchor component={Link} to="/news" size="sm">
        <IconArrowLeft size={14} aria-hidden="true" style={{ verticalAlign: '-2px' }} /> All news
      </Anchor>
      <article aria-labelledby="news-article-title">
        <Stack gap={8} mt="md" mb="lg">
          <Title order={1} id="news-article-title" fz={{ base: 30, sm: 40 }} lh={1.15}>
            {article.title}
          </Title>
          <Text size="lg" c="dimmed">
            {article.subtitle}
          </Text>
          <Text size="sm" c="dimmed">
            By {article.author} ·{' '}
            <time dateTime={article.createdOn}>{formatNewsDate(article.createdOn)}</time>
          </Text>
        </Stack>
        <NewsIllustration image={article.image} height={220} />
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing={40} verticalSpacing={0} mt="xl">
          <div data-testid="news-column-1">
            {first.map((paragraph) => (
              <Text key={paragraph} component="p" mb="md" className={classes.paragraph}>
                {paragraph}
              </Text>
            ))}
          </div>
          <div data-testid="news-column-2">
            {second.map((paragraph) => (
              <Text key={paragraph} component="p" mb="md" className={classes.paragraph}>
                {paragraph}
              </Text>
            ))}
          </div>
        </SimpleGrid>
      </article>
      <Divider my="xl" />
      <section aria-labelledby="news-keep-reading">
        <Title order={2} id="news-keep-reading" mb="lg">
          Want to keep Reading?
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
          {otherNewsArticles(article).map((other) => (
            <NewsCard key={other.title} article={other} headingOrder={3} />
          ))}
        </SimpleGrid>
      </section>
    </Container>
  );
}
