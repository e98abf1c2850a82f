import { Fragment } from 'react';
import { Link } from 'react-router';
import { Anchor, Container, List, Stack, Text, Title } from '@mantine/core';
import { LEGAL_LINKS } from '#common/content/legal.ts';
import type { LegalDocument } from '#common/content/legal.ts';

const linkPattern = new RegExp(`(${LEGAL_LINKS.map((link) => link.phrase).join('|')})`);

/** A paragraph's text with each phrase of LEGAL_LINKS as a link to its page. */
function Linked({ text }: { text: string }) {
  return text.split(linkPattern).map((part, index) => {
    const link = LEGAL_LINKS.find((candidate) => candidate.phrase === part);
    return link ? (
      <Anchor key={index} component={Link} to={link.to} underline="always">
        {part}
      </Anchor>
    ) : (
      <Fragment key={index}>{part}</Fragment>
    );
  });
}

/** A legal text (privacy policy, terms of use): title, effective date, introduction and numbered sections. */
export function LegalDocumentPage({ document }: { document: LegalDocument }) {
  return (
    <Container component="article" size="md" py={{ base: 40, md: 64 }} aria-labelledby="legal-title">
      <Stack gap="xs" mb="xl">
        <Title order={1} id="legal-title" fz={{ base: 30, sm: 40 }}>
          {document.title}
        </Title>
        <Text c="dimmed">Effective {document.effective}</Text>
      </Stack>
      <Stack gap="md">
        {document.intro.map((paragraph) => (
          <Text key={paragraph} size="lg">
            {paragraph}
          </Text>
        ))}
        {document.sections.map((section, index) => (
          <section key={section.heading} aria-labelledby={`legal-section-${index + 1}`}>
            <Title order={2} id={`legal-section-${index + 1}`} fz={{ base: 20, sm: 22 }} mt="lg" mb="xs">
              {index + 1}. {section.heading}
            </Title>
            <Stack gap="sm">
              {section.paragraphs.map((paragraph) => (
                <Text key={paragraph}>
                  <Linked text={paragraph} />
                </Text>
              ))}
              {section.items ? (
                <List spacing={6} withPadding>
                  {section.items.map((item) => (
                    <List.Item key={item}>
                      <Linked text={item} />
                    </List.Item>
                  ))}
                </List>
              ) : null}
            </Stack>
          </section>
        ))}
      </Stack>
    </Container>
  );
}
