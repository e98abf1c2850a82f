import { Link, useParams } from 'react-router';
import {
  Box,
  Button,
  Card,
  Container,
  Group,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { serviceDetails, serviceFor, servicePath } from '#common/content/services.ts';
import { serviceIcons } from '#web/features/services/service-icons.ts';
import { ServicePicture } from '#web/features/services/service-pictures.tsx';
import classes from '#web/features/services/service-page.module.css';

/** /services and /services/{service} (spec 001 §2, §3): heading, two descriptions, the service's picture and six
 * offers; an unknown or missing id selects the first service. */
export function ServicePage() {
  const { service: id } = useParams();
  const service = serviceFor(id);
  const others = serviceDetails.filter((other) => other.id !== service.id);
  return (
    <>
      <Box
        component="section"
        className={classes.hero}
        py={{ base: 40, md: 72 }}
        aria-labelledby="service-heading"
      >
        <Container size="lg">
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing={48} style={{ alignItems: 'center' }}>
            <Stack gap="md">
              <Text className={classes.eyebrow} fw={700} size="sm" tt="uppercase">
                {service.name}
              </Text>
              <Title order={1} id="service-heading" fz={{ base: 30, sm: 42 }} lh={1.15}>
                {service.heading}
              </Title>
              <Text size="lg">{service.description}</Text>
              <Text c="dimmed">{service.description2}</Text>
              <Group gap="sm">
                <Button
                  component={Link}
                  to="/contact-us"
                  size="md"
                  rightSection={<IconArrowRight size={18} aria-hidden="true" />}
                >
                  Contact Us
                </Button>
              </Group>
            </Stack>
            <Box className={classes.picture}>
              <ServicePicture id={service.id} alt={service.image.alt} />
            </Box>
          </SimpleGrid>
        </Container>
      </Box>

      <Container component="section" size="lg" py={{ base: 40, md: 64 }} aria-labelledby="service-offers">
        <Title order={2} id="service-offers" fz={{ base: 24, sm: 30 }} mb="xl">
          What we offer
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="lg">
          {service.offers.map((offer) => {
            const OfferIcon = serviceIcons[offer.icon];
            return (
              <Card key={offer.title} withBorder padding="lg" component="article">
                <ThemeIcon variant="light" size={44} radius="md" aria-hidden="true">
                  <OfferIcon size={24} stroke={1.8} />
                </ThemeIcon>
                <Title order={3} fz="lg" mt="md">
                  {offer.title}
                </Title>
                <Text size="sm" c="dimmed" mt={6}>
                  {offer.text}
                </Text>
              </Card>
            );
          })}
        </SimpleGrid>
      </Container>

      <Container component="nav" size="lg" pb={{ base: 48, md: 72 }} aria-labelledby="service-others">
        <Title order={2} id="service-others" fz={{ base: 20, sm: 24 }} mb="md">
          Other services
        </Title>
        <Group gap="sm">
          {others.map((other) => (
            <Button key={other.id} component={Link} to={servicePath(other.id)} variant="default">
              {other.name}
            </Button>
          ))}
        </Group>
      </Container>
    </>
  );
}
