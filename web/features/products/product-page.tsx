import { Link, useParams } from 'react-router';
import { Badge, Button, Card, Container, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { productFor } from '#common/content/products.ts';

/** /products and /products/{product} (spec 001 §2): only DBUI, shown as PRODUCTS COMING SOON; an unknown or
 * missing id selects DBUI. */
export function ProductPage() {
  const { product: id } = useParams();
  const product = productFor(id);
  return (
    <Container size="lg" py={{ base: 40, md: 72 }}>
      <Stack gap="md" align="center" ta="center" maw={760} mx="auto">
        <Badge size="lg" variant="light" color="indigo" radius="sm">
          {product.name}
        </Badge>
        <Title order={1} fz={{ base: 32, sm: 48 }} lh={1.1} style={{ letterSpacing: '0.04em' }}>
          {product.banner}
        </Title>
        <Title order={2} fz={{ base: 20, sm: 26 }} fw={600}>
          {product.heading}
        </Title>
        <Text size="lg" c="dimmed">
          {product.text}
        </Text>
      </Stack>

      <section aria-labelledby="product-features">
        <Title order={2} id="product-features" fz={{ base: 22, sm: 26 }} mt={56} mb="lg">
          What it will do
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          {product.features.map((feature) => (
            <Card key={feature.title} withBorder padding="lg" component="article">
              <Title order={3} fz="lg">
                {feature.title}
              </Title>
              <Text size="sm" c="dimmed" mt={6}>
                {feature.text}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
      </section>

      <Stack gap="sm" align="center" ta="center" mt={56}>
        <Text>{product.contact.text}</Text>
        <Button
          component={Link}
          to={product.contact.to}
          size="md"
          rightSection={<IconArrowRight size={18} aria-hidden="true" />}
        >
          {product.contact.label}
        </Button>
      </Stack>
    </Container>
  );
}
