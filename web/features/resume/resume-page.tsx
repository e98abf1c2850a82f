import { Container, Title } from '@mantine/core';

/** Resume (issue 15; being built). */
export function ResumePage() {
  return (
    <Container size="lg" py="xl">
      <Title order={1}>Resume</Title>
    </Container>
  );
}
