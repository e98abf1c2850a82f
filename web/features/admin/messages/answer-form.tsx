import type { FormEvent } from 'react';
import { Button, Group, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconSend } from '@tabler/icons-react';
import { answerInput, contactMessages, type ContactMessage } from '#common/contract/contact.ts';
import { useAnswerMessage } from '#web/api/contact/answer-message.ts';
import { failureMessage } from '#web/api/failure-message.ts';
import { validateWith } from '#web/forms/schema-validation.ts';
import { useSpecForm } from '#web/forms/use-spec-form.ts';
import { useSubmit } from '#web/forms/use-submit.ts';
import { messageTexts as mt } from './message-texts.ts';

const FIELDS = ['answer'] as const;
const validate = validateWith(answerInput);
/** Only if a failure came without a sentence of the server's. */
const answerFailed = 'Failed to send the answer... Please try again.';

/**
 * The answer to one message: a textarea checked by the shared schema and Send answer. The server mails it to the
 * sender and keeps it with the message; a saved-but-not-mailed answer is a yellow toast, a refusal (no mail server
 * configured, …) a red one with the server's sentence, and the text stays so nothing typed is lost.
 */
export function AnswerForm({ message }: { message: ContactMessage }) {
  const answerMessage = useAnswerMessage();
  const { submitting, submit } = useSubmit();
  const { form, field, checkAll } = useSpecForm({
    initialValues: { answer: '' },
    validate,
    fields: FIELDS,
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!checkAll()) return;
    const { answer } = answerInput.parse(form.getValues());
    void submit(async () => {
      try {
        const result = await answerMessage.mutateAsync({ id: message.id, answer });
        const notMailed = result.message === contactMessages.answerStoredNotMailed;
        notifications.show({
          color: notMailed ? 'yellow' : 'green',
          message: result.message ?? contactMessages.answerSent,
        });
        if (!notMailed) form.reset();
      } catch (error) {
        notifications.show({ color: 'red', message: failureMessage(error, answerFailed) });
      }
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label={`Answer to message ${message.id}`}>
      <Textarea
        label={message.answer ? mt.answerAgainLabel : mt.answerLabel}
        description={mt.answerDescription(message.fromEmail)}
        rows={5}
        resize="vertical"
        withAsterisk
        {...field('answer')}
      />
      <Group justify="flex-end" mt="sm">
        <Button type="submit" loading={submitting} leftSection={<IconSend size={16} aria-hidden />}>
          {mt.sendAnswer}
        </Button>
      </Group>
    </form>
  );
}
