import { notifications } from '@mantine/notifications';
import { accountMessages as m } from '#common/messages.ts';
import { failureMessage } from '#web/api/failure-message.ts';

/** Spec 000 §8 for a failed code send or check: '{server message or Something went wrong}. Please try again.', the
 * server's own closing stop dropped so the sentence ends once. */
export function failureSentence(error: unknown): string {
  return m.pleaseTryAgain(failureMessage(error, m.somethingWentWrong).replace(/[.!]+$/, ''));
}

/** Shows a failed send or check as its toast. */
export function showFailure(error: unknown): void {
  notifications.show({ color: 'red', message: failureSentence(error) });
}
