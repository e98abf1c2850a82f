import { Container, Title } from '@mantine/core';

/** Services (issue 15; being built). */
export function ServicePage() {
  return (
    <Container size="lg" py="xl">
      <Title order={1}>Services</Title>
    </Container>
  );
}
