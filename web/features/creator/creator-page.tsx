import { Container, Title } from '@mantine/core';

/** Content creator (issue 15; being built). */
export function CreatorPage() {
  return (
    <Container size="lg" py="xl">
      <Title order={1}>Content creator</Title>
    </Container>
  );
}
