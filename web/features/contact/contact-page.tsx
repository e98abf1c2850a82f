import { Container, Title } from '@mantine/core';

/** Contact Us (issue 15; being built). */
export function ContactPage() {
  return (
    <Container size="lg" py="xl">
      <Title order={1}>Contact Us</Title>
    </Container>
  );
}
