import { Container, Title } from '@mantine/core';

/** News (issue 15; being built). */
export function NewsPage() {
  return (
    <Container size="lg" py="xl">
      <Title order={1}>News</Title>
    </Container>
  );
}
