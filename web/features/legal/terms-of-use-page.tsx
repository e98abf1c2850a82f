import { Container, Title } from '@mantine/core';

/** Terms of Use (issue 15; being built). */
export function TermsOfUsePage() {
  return (
    <Container size="lg" py="xl">
      <Title order={1}>Terms of Use</Title>
    </Container>
  );
}
