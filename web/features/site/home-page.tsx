import type { ComponentType } from 'react';
import { Link } from 'react-router';
import {
  Box,
  Button,
  Card,
  Container,
  Flex,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import {
  IconArrowRight,
  IconBrain,
  IconCloud,
  IconCode,
  IconDatabase,
  IconDeviceMobile,
  IconMessages,
  IconSearch,
} from '@tabler/icons-react';
import type { IconProps } from '@tabler/icons-react';
import { homeHero, homeServices, sampleRows } from '#web/content/home.ts';
import { services, servicePath } from '#web/content/services.ts';
import type { ServiceSummary } from '#web/content/services.ts';
import classes from '#web/features/site/home-page.module.css';

const serviceIcons: Record<ServiceSummary['id'], ComponentType<IconProps>> = {
  database: IconDatabase,
  cloud: IconCloud,
  'custom-apps': IconCode,
  ai: IconBrain,
  'web-mobile': IconDeviceMobile,
  consult: IconMessages,
};

/** /home: the landing hero and the six services (spec 001 §2, Homepage). */
export function HomePage() {
  return (
    <>
      <Box component="section" className={classes.hero} py={{ base: 48, md: 88 }}>
        <Container size="lg">
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing={56} style={{ alignItems: 'center' }}>
            <Stack gap="lg" align="flex-start">
              <Text
                className={classes.eyebrow}
                fw={700}
                size="sm"
                tt="uppercase"
                style={{ letterSpacing: '0.06em' }}
              >
                {homeHero.eyebrow}
              </Text>
              <Title order={1} fz={{ base: 34, sm: 46 }} lh={1.1} style={{ letterSpacing: '-0.02em' }}>
                {homeHero.heading}
              </Title>
              <Text size="lg" c="dimmed" maw={560}>
                {homeHero.text}
              </Text>
              <Flex gap="sm" w="100%" direction={{ base: 'column', xs: 'row' }}>
                <Button
                  component={Link}
                  to={homeHero.discoverPath}
                  size="md"
                  rightSection={<IconArrowRight size={18} aria-hidden="true" />}
                >
                  {homeHero.discover}
                </Button>
                <Button component={Link} to={homeHero.productPath} size="md" variant="default">
                  {homeHero.product}
                </Button>
              </Flex>
            </Stack>
            <Box visibleFrom="md">
              <TablePreview />
            </Box>
          </SimpleGrid>
        </Container>
      </Box>

      <Container component="section" size="lg" py={{ base: 48, md: 80 }} aria-labelledby="home-services">
        <Stack gap={6} align="center" ta="center" mb={40}>
          <Title order={2} id="home-services" fz={{ base: 26, sm: 32 }}>
            {homeServices.heading}
          </Title>
          <Text c="dimmed" maw={560}>
            {homeServices.text}
          </Text>
        </Stack>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="lg">
          {services.map((service) => (
            <ServiceCard key={service.id} service={service} />
          ))}
        </SimpleGrid>
      </Container>
    </>
  );
}

function ServiceCard({ service }: { service: ServiceSummary }) {
  const Icon = serviceIcons[service.id];
  return (
    <Card
      component={Link}
      to={servicePath(service.id)}
      aria-label={service.name}
      withBorder
      padding="lg"
      className={classes.card}
    >
      <ThemeIcon variant="light" size={44} radius="md" aria-hidden="true">
        <Icon size={24} stroke={1.8} />
      </ThemeIcon>
      <Title order={3} fz="lg" mt="md">
        {service.name}
      </Title>
      <Text size="sm" c="dimmed" mt={6}>
        {service.summary}
      </Text>
    </Card>
  );
}

/** A still picture of the table browser; decoration only, so assistive technology skips it. */
function TablePreview() {
  return (
    <Paper shadow="xl" radius="lg" withBorder p="md" aria-hidden="true" style={{ pointerEvents: 'none' }}>
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Group gap={6}>
          {['red.4', 'yellow.4', 'green.4'].map((color) => (
            <Box key={color} w={10} h={10} bg={color} style={{ borderRadius: '50%' }} />
          ))}
        </Group>
        <Text size="xs" c="dimmed" ff="monospace">
          shop / public / orders
        </Text>
      </Group>
      <TextInput
        size="xs"
        mb="sm"
        readOnly
        tabIndex={-1}
        value="Search customer…"
        leftSection={<IconSearch size={14} />}
        styles={{ input: { color: 'var(--mantine-color-dimmed)' } }}
      />
      <Table striped verticalSpacing={6} fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>id</Table.Th>
            <Table.Th>customer</Table.Th>
            <Table.Th>country</Table.Th>
            <Table.Th ta="right">total</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sampleRows.map((row) => (
            <Table.Tr key={row.id}>
              <Table.Td c="dimmed">{row.id}</Table.Td>
              <Table.Td>{row.customer}</Table.Td>
              <Table.Td>{row.country}</Table.Td>
              <Table.Td ta="right" ff="monospace">
                {row.total}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed" mt="sm">
        Rows 1–5 of 1,204,337 · page 1 of 240,868
      </Text>
    </Paper>
  );
}
