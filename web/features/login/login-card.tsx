import type { ReactNode } from 'react';
import { Container, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';

/** The login page's centred card: an icon, the step's heading and one sentence on what to do, then the step. */
export function LoginCard({
  icon,
  title,
  intro,
  children,
}: {
  icon: ReactNode;
  title: string;
  intro: ReactNode;
  children: ReactNode;
}) {
  return (
    <Container size={460} px={{ base: 'xs', xs: 'md' }} py={{ base: 24, sm: 56 }}>
      <Paper withBorder shadow="sm" p={{ base: 'md', xs: 'xl' }} radius="lg">
        <Stack gap="lg">
          <Stack gap={6} align="center" ta="center">
            <ThemeIcon size={48} radius="xl" variant="light" aria-hidden>
              {icon}
            </ThemeIcon>
            <Title order={1} fz={{ base: 24, sm: 28 }}>
              {title}
            </Title>
            <Text c="dimmed" size="sm" maw={360}>
              {intro}
            </Text>
          </Stack>
          {children}
        </Stack>
      </Paper>
    </Container>
  );
}
