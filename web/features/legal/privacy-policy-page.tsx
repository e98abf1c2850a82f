import { Container, Title } from '@mantine/core';

/** Privacy Policy (issue 15; being built). */
export function PrivacyPolicyPage() {
  return (
    <Container size="lg" py="xl">
      <Title order={1}>Privacy Policy</Title>
    </Container>
  );
}
