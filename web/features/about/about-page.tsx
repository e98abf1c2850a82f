import { Link } from 'react-router';
import { Box, Button, Card, Container, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconFileCv } from '@tabler/icons-react';
import { about } from '#common/content/about.ts';
import classes from '#web/features/about/about-page.module.css';

/** /about-us (spec 001 §2): the company, how it works, and the Resume button to /resume. */
export function AboutPage() {
  return (
    <>
      <Box
        component="section"
        className={classes.hero}
        py={{ base: 40, md: 72 }}
        aria-labelledby="about-heading"
      >
        <Container size="md">
          <Stack gap="md">
            <Text className={classes.eyebrow} fw={700} size="sm" tt="uppercase">
              {about.eyebrow}
            </Text>
            <Title order={1} id="about-heading" fz={{ base: 30, sm: 42 }} lh={1.15}>
              {about.heading}
            </Title>
            <Text size="lg">{about.intro}</Text>
            {about.story.map((paragraph) => (
              <Text key={paragraph} c="dimmed">
                {paragraph}
              </Text>
            ))}
          </Stack>
        </Container>
      </Box>

      <Container
        component="section"
        size="md"
        pt={{ base: 32, md: 40 }}
        pb={{ base: 40, md: 56 }}
        aria-labelledby="about-values"
      >
        <Title order={2} id="about-values" fz={{ base: 24, sm: 30 }} mb="lg">
          {about.valuesHeading}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          {about.values.map((value) => (
            <Card key={value.title} withBorder padding="lg" component="article">
              <Title order={3} fz="lg">
                {value.title}
              </Title>
              <Text size="sm" c="dimmed" mt={6}>
                {value.text}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
      </Container>

      <Container component="section" size="md" pb={{ base: 48, md: 72 }} aria-labelledby="about-founder">
        <Paper withBorder radius="lg" p={{ base: 'lg', sm: 'xl' }}>
          <Stack gap="sm" align="flex-start">
            <Title order={2} id="about-founder" fz={{ base: 22, sm: 26 }}>
              {about.founderHeading}
            </Title>
            <Text>{about.founderText}</Text>
            <Button
              component={Link}
              to={about.resume.to}
              size="md"
              leftSection={<IconFileCv size={18} aria-hidden="true" />}
            >
              {about.resume.label}
            </Button>
          </Stack>
        </Paper>
      </Container>
    </>
  );
}
