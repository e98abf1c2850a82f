import type { FormEvent } from 'react';
import {
  Box,
  Button,
  Container,
  List,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconSend } from '@tabler/icons-react';
import { CONTACT_MESSAGE_MAX, CONTACT_SUBJECT_MAX, contactInput } from '#common/contract/contact.ts';
import { siteMessages } from '#common/messages.ts';
import { useSendContact } from '#web/api/contact/send-contact.ts';
import { failureMessage } from '#web/api/failure-message.ts';
import { validateWith } from '#web/forms/schema-validation.ts';
import { useSpecForm } from '#web/forms/use-spec-form.ts';
import { useSubmit } from '#web/forms/use-submit.ts';
import { useSession } from '#web/session/session-context.ts';
import { contactTexts as t } from './contact-texts.ts';

type ContactValues = { subject: string; message: string };

const initialValues: ContactValues = { subject: '', message: '' };
const FIELDS = ['subject', 'message'] as const;
const validate = validateWith(contactInput);

/**
 * /contact-us (spec 001 §2, §5, §8; signed in only, the route's guard sends others to the login page): From is the
 * account's first e-mail and read-only (the server takes it from the account, never from the body), Subject and
 * Message follow the shared schema's rules and messages. A success shows the server's sentence (mailed, or saved
 * for the team) and empties the form; a failure shows the server's message or 'Failed to Contact Us... Please try
 * again.' and keeps the text.
 */
export function ContactPage() {
  const { verification } = useSession();
  const email = verification?.user.user_Details[0]?.email ?? '';
  const sendContact = useSendContact();
  const { submitting, submit } = useSubmit();
  const { form, field, checkAll } = useSpecForm({ initialValues, validate, fields: FIELDS });
  const { subject, message } = form.getValues();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!checkAll()) return;
    const request = contactInput.parse(form.getValues());
    void submit(async () => {
      try {
        const answer = await sendContact.mutateAsync(request);
        notifications.show({ color: 'green', message: answer.message ?? t.sentFallback });
        form.reset();
      } catch (error) {
        notifications.show({ color: 'red', message: failureMessage(error, siteMessages.contactFailed) });
      }
    });
  };

  return (
    <Container size="lg" py={{ base: 'lg', sm: 48 }} px={{ base: 'sm', sm: 'md' }}>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing={{ base: 'xl', md: 48 }}>
        <Stack gap="md">
          <Title order={1} fz={{ base: 30, sm: 40 }}>
            {t.title}
          </Title>
          <Text size="lg">{t.intro}</Text>
          <Box component="section" aria-labelledby="contact-next">
            <Title order={2} id="contact-next" fz="h4" mb="sm">
              {t.nextHeading}
            </Title>
            <List
              spacing="sm"
              icon={
                <ThemeIcon size={22} radius="xl" variant="light" aria-hidden>
                  <IconCheck size={14} />
                </ThemeIcon>
              }
            >
              {t.next.map((line) => (
                <List.Item key={line}>
                  <Text c="dimmed" size="sm">
                    {line}
                  </Text>
                </List.Item>
              ))}
            </List>
          </Box>
        </Stack>
        <Paper withBorder shadow="sm" radius="lg" p={{ base: 'md', sm: 'xl' }}>
          <form onSubmit={onSubmit} noValidate aria-label={t.formName}>
            <Stack gap="md">
              <TextInput
                label={t.from}
                value={email}
                readOnly
                variant="filled"
                type="email"
                autoComplete="email"
                description={t.fromDescription}
                inputWrapperOrder={['label', 'input', 'description', 'error']}
              />
              <TextInput
                label={t.subject}
                withAsterisk
                {...field('subject')}
                description={t.count(subject.length, CONTACT_SUBJECT_MAX)}
                inputWrapperOrder={['label', 'input', 'error', 'description']}
              />
              <Textarea
                label={t.message}
                withAsterisk
                rows={8}
                resize="vertical"
                {...field('message')}
                description={t.count(message.length, CONTACT_MESSAGE_MAX)}
                inputWrapperOrder={['label', 'input', 'error', 'description']}
              />
              <Button type="submit" loading={submitting} leftSection={<IconSend size={18} aria-hidden />}>
                {t.send}
              </Button>
            </Stack>
          </form>
        </Paper>
      </SimpleGrid>
    </Container>
  );
}
