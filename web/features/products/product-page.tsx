import { Container, Title } from '@mantine/core';

/** Products (issue 15; being built). */
export function ProductPage() {
  return (
    <Container size="lg" py="xl">
      <Title order={1}>Products</Title>
    </Container>
  );
}
