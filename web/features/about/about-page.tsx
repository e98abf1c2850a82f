import { Container, Title } from '@mantine/core';

/** About Us (issue 15; being built). */
export function AboutPage() {
  return (
    <Container size="lg" py="xl">
      <Title order={1}>About Us</Title>
    </Container>
  );
}
