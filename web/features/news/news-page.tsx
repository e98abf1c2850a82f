import { Container, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { newsArticles } from '#common/content/news.ts';
import { NewsCard } from '#web/features/news/news-card.tsx';

/** /news: the four articles as cards (spec 001 §2). */
export function NewsPage() {
  return (
    <Container size="lg" py={{ base: 'lg', sm: 'xl' }}>
      <Stack gap={6} mb="xl">
        <Title order={1}>News</Title>
        <Text c="dimmed" maw={640}>
          Notes from our team on databases, software projects and the way we work with small businesses.
        </Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="lg">
        {newsArticles.map((article) => (
          <NewsCard key={article.title} article={article} headingOrder={2} />
        ))}
      </SimpleGrid>
    </Container>
  );
}
