import type { ReactNode } from 'react';
import { Container, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';

/**
 * The centred card of the account screens (login, sign-up, forgot and update password), in the setup page's style:
 * an icon, the heading and one sentence on what to do, the form or step, and an optional footer line of links.
 */
export function FormCard({
  icon,
  title,
  intro,
  children,
  footer,
}: {
  icon: ReactNode;
  title: string;
  intro: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <Container size={480} px={{ base: 'xs', xs: 'md' }} py={{ base: 24, sm: 56 }}>
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
      {footer && (
        <Text ta="center" size="sm" mt="lg">
          {footer}
        </Text>
      )}
    </Container>
  );
}
