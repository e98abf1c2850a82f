import type { ReactNode } from 'react';
import { Container, Title } from '@mantine/core';

/** Every admin page's frame: the admin menu (Home, Users, Roles, Audit) and the page's title (being built). */
export function AdminFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Container size="xl" py="md">
      <Title order={1}>{title}</Title>
      {children}
    </Container>
  );
}
